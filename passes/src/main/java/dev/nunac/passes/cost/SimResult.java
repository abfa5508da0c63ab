package dev.nunac.passes.cost;

import java.util.List;

/**
 * What one simulation measured. {@code completionNs}: the collective's completion time, when
 * the last step has finished and the last flit is in memory. {@code utilisation}: every server
 * that did work, busiest first. {@code criticalPath}: the chain of steps that ends last, from its
 * first step on.
 */
public record SimResult(double completionNs, LatencyStats storeLatency, LatencyHistogram histogram,
                        List<Utilisation> utilisation, List<TbTiming> threadblocks, List<CriticalStep> criticalPath,
                        long events) {
    /** The busiest server of a kind ({@code "port-out"}, {@code "link"}, {@code "cu"}, {@code "router-in"}, ...), or null. */
    public Utilisation busiest(String kind) {
        for (Utilisation u : utilisation) if (u.kind().equals(kind)) return u;
        return null;
    }

    /** The latest finish among threadblocks whose CU is h hops from its nearest stack on {@code topo}, indexed by h. */
    public double[] slowestByHopsToStack(dev.nunac.topology.Topology topo) {
        double[] out = new double[0];
        for (TbTiming tb : threadblocks) {
            int h = topo.cuHopsToNearestStack(tb.cu());
            if (h >= out.length) out = java.util.Arrays.copyOf(out, h + 1);
            out[h] = Math.max(out[h], tb.finishNs());
        }
        return out;
    }
}
