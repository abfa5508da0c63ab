package dev.nunac.passes.cost;

import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.topology.Port;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.List;

/**
 * A closed-form first cut of a placement's collective time, for ranking NAR granularities of
 * plans too large to simulate several times: the busiest scale-up port's bytes over its
 * bandwidth (every remote chunk's bytes spread evenly over the ports of its page's domain, or
 * all ports when hashed), plus the mean zero-load path of a remote store (CU-to-NoC, NoC hops to
 * the port, the scale-up traversal, hops to the destination stack, memory). It ignores
 * dependencies and NoC contention, so it ranks candidates; the simulator times them.
 */
public final class AnalyticEstimate {
    private AnalyticEstimate() {}

    public static double ns(Accesses acc, Placement pl, Topology topo) {
        int ranks = 0;
        for (TbAccess t : acc.threadblocks()) ranks = Math.max(ranks, t.rank() + 1);
        int nPorts = topo.ports().size();
        double[] out = new double[ranks * nPorts], in = new double[ranks * nPorts];
        int[] all = topo.scaleUpPorts().stream().mapToInt(Port::index).toArray();
        boolean direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
        double hopNs = topo.nocFigures().cyclesToNs(topo.nocFigures().hopCycles().value());
        double fixed = topo.latencies().cuToNocNs().value() + topo.latencies().linkNs().value() + topo.memory().latencyNs().value();
        List<PageMap> pages = pl.pages();
        double latSum = 0;
        long stores = 0;
        for (int i = 0; i < acc.threadblocks().size(); i++) {
            TbAccess t = acc.threadblocks().get(i);
            int cuRouter = topo.cus().get(pl.cuOfTb()[i]).router();
            for (int ch : t.remote()) {
                int si = acc.space().storageIndexOf(ch);
                int q = acc.space().storages().get(si).rank();
                PageMap pm = pages.get(si);
                int page = Math.min(pm.stack().length - 1, pm.pageOf(ch - acc.space().storages().get(si).firstId(), pl.chunkBytes(), pl.pageBytes()));
                int[] ports;
                if (direct) {
                    int g = Math.max(1, topo.scaleUp().gpus());
                    ports = t.rank() / g == q / g ? topo.portsToPeer(t.rank() % g, q % g) : all;
                } else {
                    int d = pm.domain()[page];
                    ports = pl.granularity() > 1 && d >= 0 ? topo.narDomains(pl.granularity()).get(d).ports() : all;
                }
                double share = (double) pl.chunkBytes() / ports.length;
                int stackRouter = topo.stacks().get(pm.stack()[page]).router();
                double hops = 0;
                for (int p : ports) {
                    out[t.rank() * nPorts + p] += share;
                    in[q * nPorts + p] += share;
                    int pr = topo.ports().get(p).router();
                    hops += topo.hops(cuRouter, pr) + topo.hops(pr, stackRouter);
                }
                latSum += fixed + hops / ports.length * hopNs;
                stores++;
            }
        }
        double bytesPerNs = topo.scaleUp().portBandwidthGBs().value(); // GB/s = bytes/ns
        double busiest = 0;
        for (int i = 0; i < out.length; i++) busiest = Math.max(busiest, Math.max(out[i], in[i]));
        return busiest / bytesPerNs + (stores == 0 ? 0 : latSum / stores);
    }
}
