package dev.nunac.passes.place;

import dev.nunac.topology.Topology;

/**
 * Mean hops, and the NoC latency to the nearest port, from a router to a set of ports, memoised
 * per port set: the placer hands out one
 * array per set ({@code portsOf}: the NIC across boxes, the port to the peer on direct
 * topologies, else a NAR domain, or all ports when hashed), and a plan asks the same few sets
 * from the same few routers millions of times. One memo serves one placement run (one thread).
 */
final class HopsMemo {
    private final Topology topo;
    private final java.util.IdentityHashMap<int[], double[]> bySet = new java.util.IdentityHashMap<>();
    private final java.util.IdentityHashMap<int[], double[]> nearestBySet = new java.util.IdentityHashMap<>();

    HopsMemo(Topology topo) {
        this.topo = topo;
    }

    /**
     * The two sets asked about last and their means: a placement's pages ask the same two (the
     * ports a chunk leaves by and those it arrives through) many times in a row.
     */
    private int[] lastSet, prevSet;
    private double[] lastMeans, prevMeans;

    double mean(int router, int[] ports) {
        double[] m;
        if (ports == lastSet) {
            m = lastMeans;
        } else {
            if (ports == prevSet) {
                m = prevMeans;
            } else {
                m = bySet.get(ports);
                if (m == null) {
                    m = new double[topo.routers().size()];
                    java.util.Arrays.fill(m, Double.NaN);
                    bySet.put(ports, m);
                }
            }
            prevSet = lastSet;
            prevMeans = lastMeans;
            lastSet = ports;
            lastMeans = m;
        }
        if (Double.isNaN(m[router])) {
            long sum = 0;
            for (int port : ports) sum += topo.hops(router, topo.ports().get(port).router());
            m[router] = ports.length == 0 ? 0 : (double) sum / ports.length;
        }
        return m[router];
    }

    /** Per router, the NoC latency (ns) to the nearest port of {@code ports} (0 for no ports). */
    double[] nearestNs(int[] ports) {
        return nearestBySet.computeIfAbsent(ports, x -> {
            double[] a = new double[topo.routers().size()];
            for (int r = 0; r < a.length; r++) {
                double b = ports.length == 0 ? 0 : Double.POSITIVE_INFINITY;
                for (int p : ports) b = Math.min(b, topo.nocLatencyNs(r, topo.ports().get(p).router()));
                a[r] = b;
            }
            return a;
        });
    }
}
