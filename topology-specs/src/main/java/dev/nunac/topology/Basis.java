package dev.nunac.topology;

import java.util.Locale;

/** Where a number comes from: how much to trust it. */
public enum Basis {
    /** Measured on hardware (by us or a cited third party). */
    MEASURED,
    /** Stated by the vendor or a paper. */
    PUBLISHED,
    /** Computed from other values of the spec (the note says how). */
    DERIVED,
    /** Chosen by the spec's author where no source exists; override with measured values. */
    ASSUMED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
