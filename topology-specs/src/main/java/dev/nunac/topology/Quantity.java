package dev.nunac.topology;

/**
 * A number of the spec together with its provenance. {@code source} is a key of the spec's
 * {@code sources} table; {@code note} explains an interpretation or a derivation.
 */
public record Quantity(double value, Basis basis, String source, String note) {
    public long asLong() {
        return Math.round(value);
    }
}
