package dev.nunac.passes.place;

import dev.nunac.passes.access.TbAccess;
import dev.nunac.topology.Topology;

/** Hop counts, spills and budget use of a finished placement (see {@link PlacementStats}). */
final class PlacementMetrics {
    private PlacementMetrics() {}

    static PlacementStats of(PhysicalPlacement.Placer p) {
        Topology topo = p.topo;
        double sumCu = 0, maxCu = 0, sumSt = 0, maxSt = 0;
        int nCu = 0, nSt = 0;
        for (int t = 0; t < p.cuOfTb.length; t++) {
            TbAccess a = p.acc.threadblocks().get(t);
            if (a.remote().length == 0) continue;
            int cuRouter = topo.cus().get(p.cuOfTb[t]).router();
            double tbSum = 0;
            for (int ch : a.remote()) {
                int q = p.acc.space().rankOf(ch);
                int[] sendPorts = trafficPorts(p, a.rank(), q, ch);
                int[] recvPorts = trafficPorts(p, q, a.rank(), ch);
                tbSum += meanHops(topo, cuRouter, sendPorts);
                int stack = p.stackOfChunk(ch);
                if (stack >= 0) {
                    double h = meanHops(topo, topo.stacks().get(stack).router(), recvPorts);
                    sumSt += h;
                    maxSt = Math.max(maxSt, h);
                    nSt++;
                }
            }
            double mean = tbSum / a.remote().length;
            sumCu += mean;
            maxCu = Math.max(maxCu, mean);
            nCu++;
        }
        double maxCuLoad = 0, maxStackLoad = 0;
        for (long[] left : p.cuLeft) for (long l : left) maxCuLoad = Math.max(maxCuLoad, 1.0 - (double) l / p.window);
        for (long[] left : p.stackLeft) for (long l : left) maxStackLoad = Math.max(maxStackLoad, 1.0 - (double) l / p.stackBudget);
        return new PlacementStats(nCu == 0 ? 0 : sumCu / nCu, maxCu, nSt == 0 ? 0 : sumSt / nSt, maxSt, p.cuSpills,
                p.cuOverflows, p.stackSpills, p.stackOverflows, p.pageConflicts, p.pagesUntouched, maxCuLoad, maxStackLoad);
    }

    /**
     * The ports that carry traffic between {@code rank} and {@code peer} for chunk {@code ch}, on
     * {@code rank}'s side: the NIC across boxes, the port to the peer on direct topologies, else
     * the ports of the chunk page's NAR domain, or all ports when hashed.
     */
    static int[] trafficPorts(PhysicalPlacement.Placer p, int rank, int peer, int ch) {
        if (peer / p.boxSize != rank / p.boxSize) return p.nicPorts;
        if (p.direct) return p.portsOf(rank, peer, -1);
        int d = p.k > 1 ? p.pageDomainOfChunk(ch) : -1;
        return d >= 0 ? p.topo.narDomains(p.k).get(d).ports() : p.allPorts;
    }

    static double meanHops(Topology topo, int router, int[] ports) {
        if (ports.length == 0) return 0;
        long sum = 0;
        for (int port : ports) sum += topo.hops(router, topo.ports().get(port).router());
        return (double) sum / ports.length;
    }
}
