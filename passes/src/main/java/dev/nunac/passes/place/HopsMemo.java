package dev.nunac.passes.place;

import dev.nunac.topology.Topology;

/**
 * Mean hops from a router to a set of ports, memoised per port set: the placer hands out one
 * array per set ({@code portsOf}: the NIC across boxes, the port to the peer on direct
 * topologies, else a NAR domain, or all ports when hashed), and a plan asks the same few sets
 * from the same few routers millions of times.
 */
final class HopsMemo {
    private final Topology topo;
    private final java.util.IdentityHashMap<int[], double[]> bySet = new java.util.IdentityHashMap<>();

    HopsMemo(Topology topo) {
        this.topo = topo;
    }

    double mean(int router, int[] ports) {
        double[] m = bySet.computeIfAbsent(ports, x -> {
            double[] a = new double[topo.routers().size()];
            java.util.Arrays.fill(a, Double.NaN);
            return a;
        });
        if (Double.isNaN(m[router])) {
            long sum = 0;
            for (int port : ports) sum += topo.hops(router, topo.ports().get(port).router());
            m[router] = ports.length == 0 ? 0 : (double) sum / ports.length;
        }
        return m[router];
    }
}
