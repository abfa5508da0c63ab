package dev.nunac.topology;

/** Provenance of a value that is not a single number (e.g. the list of NAR granularities). */
public record Provenance(Basis basis, String source, String note) {}
