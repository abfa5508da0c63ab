package dev.nunac.passes.cost;

import dev.nunac.passes.place.PlacementInput;
import dev.nunac.topology.Port;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Stack;
import dev.nunac.topology.Topology;

/**
 * A lower bound on a plan's completion time under the cost model, whatever the placement: how
 * close a placement comes to it says what is left to gain.
 *
 * <p>Each data-moving step takes at least its ideal path — the best CU, port and stacks any
 * placement could give it, with no contention — and at least the time its own bytes need through
 * the widest the hardware allows: all the GPU's scale-up ports (those to the peer on a direct
 * topology), all its stacks, and one CU's outstanding-request window, which a flit holds for at
 * least that ideal latency (the simulator lets a batch in while the window is not full, so the
 * window counts as one batch wider), at least the time its flits need to pass the CU's injection
 * (all of a step's flits leave from its one CU, one injection service time each), and at least the
 * time its flits need to leave one CU through the ports: a port passes one flit per service time, and the ports beyond the nearest few are
 * further away ({@link PortSpread}). The steps keep
 * the plan's order (a threadblock's steps in turn, dependencies, a receive after its send's
 * data), so the bound is the last delivery along the step graph; and no GPU can send or receive
 * its bytes faster than all its ports together allow, nor read and write them faster than all its
 * stacks, plus the ideal latency of the last flit. The bound is the larger of the two.
 */
public final class IdealBound {
    /**
     * The bound, which of its two parts set it, and the earliest any of the plan's data can be in
     * memory (the least ideal latency of a data-moving step; 0 when none moves data).
     */
    public record Bound(double ns, String limit, double firstNs) {}

    private IdealBound() {}

    public static Bound of(PlacementInput in) {
        return of(in, SimConfig.defaults());
    }

    /** The bound under the simulator's settings {@code cfg} (its batches fix how a CU's window is charged). */
    public static Bound of(PlacementInput in, SimConfig cfg) {
        return of(in, cfg, new AnalyticModel());
    }

    /** The bound, on the step graph {@code model} has made for {@code in} or makes now and keeps for its estimates. */
    public static Bound of(PlacementInput in, AnalyticModel model) {
        return of(in, SimConfig.defaults(), model);
    }

    private static Bound of(PlacementInput in, SimConfig cfg, AnalyticModel model) {
        AnalyticModel.Shape sh = model.shape(in);
        Topology topo = in.topology();
        StepGraph g = sh.g;
        double cuToNoc = topo.latencies().cuToNocNs().value(), mem = topo.memory().latencyNs().value();
        double link = topo.latencies().linkNs().value();
        double net = topo.scaleOut().map(so -> so.latencyNs().value()).orElse(link);
        double window = Math.max(1, topo.budgets().outstandingPerCu().value());
        double cuSvc = cfg.flitBytes() / topo.cuInjectionGBs();
        double portBw = topo.scaleUpPorts().stream().mapToDouble(Port::bandwidthGBs).sum();
        double stackBw = topo.stacks().stream().mapToDouble(Stack::bandwidthGBs).sum();
        boolean direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
        // Ideal legs: CU to its nearest stack and back, CU to its nearest port, port to its nearest stack.
        double cuStack = Double.POSITIVE_INFINITY, cuPort = Double.POSITIVE_INFINITY, cuStackRead = Double.POSITIVE_INFINITY;
        for (var cu : topo.cus()) {
            double toPort = Double.POSITIVE_INFINITY, read = Double.POSITIVE_INFINITY, toStack = Double.POSITIVE_INFINITY;
            for (Port p : topo.scaleUpPorts()) toPort = Math.min(toPort, topo.nocLatencyNs(cu.router(), p.router()));
            for (Stack s : topo.stacks()) {
                toStack = Math.min(toStack, topo.nocLatencyNs(cu.router(), s.router()));
                read = Math.min(read, topo.nocLatencyNs(cu.router(), s.router()) + topo.nocLatencyNs(s.router(), cu.router()));
            }
            cuPort = Math.min(cuPort, toPort);
            cuStack = Math.min(cuStack, toStack);
            // a store that first reads its source: the best CU for both legs together
            cuStackRead = Math.min(cuStackRead, read + toPort);
        }
        double portStack = Double.POSITIVE_INFINITY;
        for (Port p : topo.scaleUpPorts()) for (Stack s : topo.stacks()) portStack = Math.min(portStack, topo.nocLatencyNs(p.router(), s.router()));
        if (topo.scaleUpPorts().isEmpty()) cuPort = portStack = 0;
        double read = cuToNoc + mem; // plus the best round trip, counted in the legs above
        int n = g.stepCount;
        int moving = 0;
        for (int s = 0; s < n; s++) if (sh.kind[s] != null && sh.kind[s].movesData) moving++;
        int batchCap = cfg.batchesPerTransfer(moving);
        int flitBytes = cfg.flitBytes(), gpus = Math.max(1, topo.scaleUp().gpus());
        PortSpread spread = new PortSpread(topo, link, portStack, flitBytes);
        int[] allPorts = topo.scaleUpPorts().stream().mapToInt(Port::index).toArray();
        int[][] peerPorts = new int[direct ? gpus * gpus : 0][];
        double[] lat = new double[n], issue = new double[n], drain = new double[n];
        int ranks = in.plan().ranks();
        double[] out = new double[ranks], inb = new double[ranks], stackBytes = new double[ranks];
        double minStore = Double.POSITIVE_INFINITY, minAny = Double.POSITIVE_INFINITY, minData = Double.POSITIVE_INFINITY;
        for (int s = 0; s < n; s++) {
            TransferKind kind = sh.kind[s];
            if (kind == null) continue;
            long bytes = kind == TransferKind.SIGNAL ? 8 : (long) sh.count[s] * in.chunkBytes();
            double flits = Math.ceil(bytes / (double) flitBytes);
            int rank = g.rankOfStep(s), q = sh.peer[s];
            boolean crosses = q != rank && topo.scaleOut().isPresent() && boxOf(in, q) != boxOf(in, rank);
            double hop = crosses ? net : link;
            // chunks over the scale-up ports: a store's or a load's, not a local copy's nor a signal's
            boolean remoteData = kind == TransferKind.REMOTE_STORE || kind == TransferKind.REMOTE_LOAD;
            boolean readsLocal = sh.src[s] != null && kind != TransferKind.REMOTE_LOAD;
            double l = switch (kind) {
                case REMOTE_STORE -> (readsLocal ? read + cuStackRead : cuPort) + cuToNoc + hop + portStack + mem;
                case REMOTE_LOAD -> cuToNoc + cuPort + hop + portStack + mem + portStack + hop + cuPort + cuToNoc + cuStack + mem;
                case SIGNAL -> cuToNoc + cuPort + hop + portStack + mem;
                case LOCAL -> (sh.src[s] != null ? read + 2 * cuStack : 0) + cuToNoc + cuStack + mem;
            };
            lat[s] = l;
            minAny = Math.min(minAny, l);
            if (kind.movesData) minData = Math.min(minData, l);
            // A flit holds one of the CU's window slots for at least l, and a batch is let in while
            // the window is not full: the last batch is admitted no sooner than this.
            long batches = Math.min(batchCap, Math.max(1, (long) flits / cfg.minBatchFlits()));
            double open = window + Math.ceil(flits / batches) - 1;
            issue[s] = Math.max(0, flits - open) * l / open;
            // every flit leaves through the one CU's injection, one service time each
            issue[s] = Math.max(issue[s], flits * cuSvc);
            double rest = Math.max(0, bytes - (double) flitBytes);
            double d = rest * (sh.src[s] != null ? 2 : 1) / stackBw;
            if (remoteData && portBw > 0) d = Math.max(d, rest / widest(topo, direct && !crosses, rank, q, portBw));
            if (remoteData && !crosses && flits > 1) {
                // one CU's flits spread over ports: near ones are few, far ones slow (PortSpread)
                int set = direct ? (rank % gpus) * gpus + q % gpus : -1;
                int[] ports = !direct ? allPorts : peerPorts[set] != null ? peerPorts[set]
                        : (peerPorts[set] = topo.portsToPeer(rank % gpus, q % gpus));
                PortSpread.Kind pk = kind == TransferKind.REMOTE_LOAD ? PortSpread.Kind.GET : readsLocal ? PortSpread.Kind.PUT_READING : PortSpread.Kind.PUT;
                double t = spread.time(pk, set, ports, (long) flits);
                if (t > l) d = Math.max(d, t - l);
            }
            drain[s] = Math.max(issue[s], d);
            if (remoteData) {
                out[kind.srcRank(rank, q)] += bytes;
                inb[kind.dstRank(rank, q)] += bytes;
                minStore = Math.min(minStore, l);
            }
            if (kind.movesData) {
                stackBytes[rank] += bytes * (kind == TransferKind.LOCAL ? 2 : 1);
                if (q != rank) stackBytes[q] += bytes;
            }
        }
        double[] done = new double[n], delivered = new double[n];
        double path = 0;
        for (int s : sh.order) {
            int tb = g.tbOfStep[s];
            double start = s > g.tbStart[tb] ? done[s - 1] : 0;
            for (int d : g.deps[s]) start = Math.max(start, done[d]);
            if (sh.waitsForSender(s)) start = Math.max(start, delivered[g.senderOf[s]]);
            if (sh.kind[s] == null) {
                done[s] = delivered[s] = start;
            } else {
                delivered[s] = start + drain[s] + lat[s];
                done[s] = sh.kind[s].posted ? start + issue[s] : delivered[s];
            }
            path = Math.max(path, delivered[s]);
        }
        double bandwidth = 0;
        for (int r = 0; r < ranks; r++) {
            if (portBw > 0 && minStore < Double.POSITIVE_INFINITY) bandwidth = Math.max(bandwidth, Math.max(out[r], inb[r]) / portBw + minStore);
            if (minAny < Double.POSITIVE_INFINITY) bandwidth = Math.max(bandwidth, stackBytes[r] / stackBw + minAny);
        }
        double first = minData < Double.POSITIVE_INFINITY ? minData : 0;
        return bandwidth > path ? new Bound(bandwidth, "bandwidth (the busiest GPU's bytes over all its ports or stacks)", first)
                : new Bound(path, direct ? "latency (every step on its best path)" : "latency (every step on its best CU, port and stack)", first);
    }

    /** The most bandwidth a step between two GPUs can have: the ports wired to the peer on a direct topology, else all. */
    private static double widest(Topology topo, boolean direct, int rank, int peer, double all) {
        if (!direct) return all;
        int g = Math.max(1, topo.scaleUp().gpus());
        double bw = 0;
        for (int p : topo.portsToPeer(rank % g, peer % g)) bw += topo.ports().get(p).bandwidthGBs();
        return bw > 0 ? bw : all;
    }

    private static int boxOf(PlacementInput in, int rank) {
        int box = in.topology().scaleOut().map(so -> so.gpusPerBox()).orElse(0);
        return box > 0 ? rank / box : 0;
    }
}
