package dev.nunac.topology;

/** Per-stack HBM defaults, with provenance; each {@link Stack} carries its resolved values. */
public record Memory(Quantity bandwidthGBs, Quantity capacityGiB, Quantity latencyNs) {}
