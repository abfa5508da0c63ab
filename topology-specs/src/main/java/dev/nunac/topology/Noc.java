package dev.nunac.topology;

/** The on-chip network's clock and default link figures; the structure is in {@link RouterGraph}. */
public record Noc(Quantity clockMHz, Quantity hopCycles, Quantity linkBandwidthGBs) {
    /** Cycles of the NoC clock in nanoseconds. */
    public double cyclesToNs(double cycles) {
        return cycles * 1000.0 / clockMHz.value();
    }
}
