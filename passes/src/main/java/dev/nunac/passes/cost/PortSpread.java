package dev.nunac.passes.cost;

import dev.nunac.topology.Port;
import dev.nunac.topology.Stack;
import dev.nunac.topology.Topology;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The least time one threadblock's transfer of {@code n} flits can take through the scale-up
 * ports, whatever placement and routing it gets: one CU issues it, each flit takes some port, and
 * a port passes one flit per service time. Near ports are fast but few; spreading over more ports
 * reaches ports further away. The answer is water-filling: with the ports sorted by the path
 * latency {@code L} through them, the smallest {@code T} at which the ports with {@code L <= T}
 * can carry {@code n} flits ({@code (T - L) / service + 1} each), minimised over CUs.
 *
 * <p>Only ports and the NoC's fixed path latencies count (no contention, every other server
 * infinitely fast), so it stays a lower bound for {@link IdealBound}. Results are memoised per
 * (kind, port set, flits): a plan has few distinct transfer sizes.
 */
final class PortSpread {
    /** How a transfer uses the ports: a put (optionally reading a local source first), or a get. */
    enum Kind { PUT, PUT_READING, GET }

    private final Topology topo;
    private final double cuToNoc, mem, hop, portStack;
    private final int flitBytes;
    /** One representative CU router each (CUs on one router see the same latencies). */
    private final int[] routers;
    private final double[] toStack, roundTrip;
    private final Map<Key, Double> memo = new HashMap<>();

    private record Key(Kind kind, int portSet, long flits) {}

    PortSpread(Topology topo, double hop, double portStack, int flitBytes) {
        this.topo = topo;
        this.cuToNoc = topo.latencies().cuToNocNs().value();
        this.mem = topo.memory().latencyNs().value();
        this.hop = hop;
        this.portStack = portStack;
        this.flitBytes = flitBytes;
        routers = topo.cus().stream().mapToInt(cu -> cu.router()).distinct().sorted().toArray();
        toStack = new double[routers.length];
        roundTrip = new double[routers.length];
        for (int i = 0; i < routers.length; i++) {
            double to = Double.POSITIVE_INFINITY, rt = Double.POSITIVE_INFINITY;
            for (Stack s : topo.stacks()) {
                to = Math.min(to, topo.nocLatencyNs(routers[i], s.router()));
                rt = Math.min(rt, topo.nocLatencyNs(routers[i], s.router()) + topo.nocLatencyNs(s.router(), routers[i]));
            }
            toStack[i] = to;
            roundTrip[i] = rt;
        }
    }

    /**
     * Least time (ns) from issue to the last flit in memory for {@code flits} flits through
     * {@code ports}, which the caller names by {@code portSet} (one id per distinct set).
     */
    double time(Kind kind, int portSet, int[] ports, long flits) {
        if (ports.length == 0 || routers.length == 0) return Double.NaN;
        Key key = new Key(kind, portSet, flits);
        Double hit = memo.get(key);
        if (hit != null) return hit;
        double best = Double.POSITIVE_INFINITY;
        double[] lat = new double[ports.length], svc = new double[ports.length];
        for (int j = 0; j < ports.length; j++) svc[j] = flitBytes / topo.ports().get(ports[j]).bandwidthGBs();
        Integer[] order = new Integer[ports.length];
        for (int i = 0; i < routers.length; i++) {
            int r = routers[i];
            for (int j = 0; j < ports.length; j++) {
                Port p = topo.ports().get(ports[j]);
                double out = topo.nocLatencyNs(r, p.router());
                lat[j] = switch (kind) {
                    case PUT -> cuToNoc + out + hop + portStack + mem;
                    case PUT_READING -> cuToNoc + mem + roundTrip[i] + cuToNoc + out + hop + portStack + mem;
                    case GET -> cuToNoc + out + hop + portStack + mem + portStack + hop
                            + topo.nocLatencyNs(p.router(), r) + cuToNoc + toStack[i] + mem;
                };
                order[j] = j;
            }
            Arrays.sort(order, (a, b) -> Double.compare(lat[a], lat[b]));
            best = Math.min(best, waterFill(lat, svc, order, flits));
        }
        memo.put(key, best);
        return best;
    }

    /**
     * The smallest T with sum over ports of max(0, (T - L) / s + 1) >= n, the ports taken in
     * latency order: with the first k open, T = (n - k + sum L/s) / sum 1/s, valid up to the next L.
     */
    static double waterFill(double[] lat, double[] svc, Integer[] order, long n) {
        double rate = 0, weighted = 0, t = Double.POSITIVE_INFINITY;
        for (int k = 0; k < order.length; k++) {
            int j = order[k];
            rate += 1 / svc[j];
            weighted += lat[j] / svc[j];
            t = Math.max(lat[j], (n - (k + 1) + weighted) / rate);
            if (k + 1 == order.length || t <= lat[order[k + 1]]) return t;
        }
        return t;
    }
}
