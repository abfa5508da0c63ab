package dev.nunac.topology;

/**
 * Fixed latencies (ns). {@code link}: one scale-up traversal (switch hop for clos, the direct
 * link otherwise); {@code dieToDie}: may be null when the NoC already models die crossings.
 */
public record Latencies(Quantity cuToNocNs, Quantity memoryNs, Quantity linkNs, Quantity dieToDieNs) {}
