package dev.nunac.topology;

/**
 * The on-chip network's clock and default link figures, and how fast endpoints reach it; the
 * structure is in {@link RouterGraph}. {@code cuInjectionGBs}: how fast one CU puts flits onto
 * the NoC. {@code routerInjectionGBs}, {@code routerEjectionGBs}: how fast one router accepts
 * flits from, and delivers flits to, all its attached endpoints together (CUs, stacks, ports).
 * Each is null when the spec does not give it; {@link Topology} then derives it from the links.
 */
public record Noc(Quantity clockMHz, Quantity hopCycles, Quantity linkBandwidthGBs, Quantity cuInjectionGBs,
                  Quantity routerInjectionGBs, Quantity routerEjectionGBs) {
    /** Cycles of the NoC clock in nanoseconds. */
    public double cyclesToNs(double cycles) {
        return cycles * 1000.0 / clockMHz.value();
    }

    Noc withCuInjection(Quantity q) {
        return new Noc(clockMHz, hopCycles, linkBandwidthGBs, q, routerInjectionGBs, routerEjectionGBs);
    }
}
