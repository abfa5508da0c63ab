package dev.nunac.passes.cost;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Step;
import dev.nunac.ir.TbId;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.place.Placement;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Discrete-event simulation of a placed plan (DESIGN §8). Threadblocks run their steps in
 * order; a step starts when its threadblock is free, its dependencies have finished and, for
 * a receive or a wait, the matching send's data or signal has arrived. A transfer is cut into
 * batches of a few flits (at most {@link SimConfig#MAX_BATCHES}, fewer when the plan has many
 * transfers: {@link SimConfig#batchesPerTransfer}), each an event at the time its CU issues it
 * (when the CU's injection server has passed the batch before); a batch is split into
 * parcels by route (source stack, port, destination stack) and pushed through the FIFO servers
 * on its route ({@link Route}). A send finishes when its CU has issued the last flit (stores are
 * posted); its receive can start when the last flit is in memory. Deterministic: events are
 * ordered by time, then by creation.
 */
public final class Simulator {
    private Simulator() {}

    public static SimResult simulate(Plan plan, Accesses acc, Placement pl, Topology topo, SimConfig cfg) {
        return new Run(plan, acc, pl, topo, cfg, null).run();
    }

    /**
     * As {@link #simulate(Plan, Accesses, Placement, Topology, SimConfig)}, with a GEMM on every
     * GPU started with the collective and contending for the same links and stacks ({@code
     * background} null: none). The run ends when the collective does.
     */
    public static SimResult simulate(Plan plan, Accesses acc, Placement pl, Topology topo, SimConfig cfg, Gemm background) {
        return new Run(plan, acc, pl, topo, cfg, background).run();
    }

    public static SimResult simulate(Plan plan, Accesses acc, Placement pl, Topology topo) {
        return simulate(plan, acc, pl, topo, SimConfig.defaults());
    }

    /**
     * The first {@code untilNs} of the simulation only: how many flits of the plan's data had
     * landed by then. The events are those of the full run up to that time, so the opening
     * stretch costs about that fraction of a full simulation's work.
     */
    public static Opening opening(Plan plan, Accesses acc, Placement pl, Topology topo, SimConfig cfg, double untilNs) {
        Run r = new Run(plan, acc, pl, topo, cfg, null);
        r.until = untilNs;
        r.loop();
        return new Opening(untilNs, r.landed, r.halfway < 0 ? r.landed : r.halfway, r.events);
    }

    /**
     * A rough count of the events one simulation of the placement takes: per data-moving step,
     * its batches times the parcels a batch splits into (its sampled flits, bounded by the ports
     * its traffic spreads over), times the events a parcel takes along its route — about one per
     * two and a half stages, so more on long routes. Fitted on the corpus plans (within a third);
     * for work budgets.
     */
    public static long work(Plan plan, Placement pl, Topology topo, SimConfig cfg) {
        int cap = cfg.batchesPerTransfer(movingSteps(plan));
        int spread = pl.direct() ? 2 : Math.max(1, topo.scaleUpPorts().size() / Math.max(1, pl.granularity()));
        double perParcel = 6 + 0.57 * (pl.stats().meanCuPortHops() + pl.stats().meanStackPortHops());
        double events = 0;
        for (var rp : plan.rankPlans()) {
            for (var tb : rp.threadblocks()) {
                for (Step st : tb.steps()) {
                    if (!TransferKind.movesData(st.op())) continue;
                    long flits = Math.max(1, (st.count() * pl.chunkBytes() + cfg.flitBytes() - 1) / cfg.flitBytes());
                    long batches = Math.min(cap, Math.max(1, flits / cfg.minBatchFlits()));
                    long perBatch = Math.min(cfg.samplesPerBatch(), Math.min((flits + batches - 1) / batches, spread));
                    events += batches * perBatch * perParcel;
                }
            }
        }
        return (long) events;
    }

    /** The plan's data-moving steps, over which the batch budget is shared ({@link SimConfig#batchesPerTransfer}). */
    static int movingSteps(Plan plan) {
        return MovingSteps.of(plan).steps();
    }

    /** A transfer in flight: the step, its flits, and the batches still to issue. */
    private static final class Transfer {
        int step, tb, rank, peer, cu;
        TransferKind kind;
        ChunkRef src, dst;
        long bytes, flits, batchFlits, nextFlit;
        int domain;
        double delivered, issued;
        int inFlight;
        /** Flits of the next batch already admitted to the CU's window. */
        long admitted;
    }

    /** A background GEMM tile: loading its inputs (phase 0), then storing its output (phase 1). */
    private static final class Tile {
        int rank, cu, phase, index;
        long firstPage, flits, nextFlit, batchFlits;
        int inFlight;
        double last;
    }

    /** A background tile moves at most this many batches per phase (bounds the events of large GEMMs). */
    static final int TILE_BATCHES = 16;

    private static final class Run {
        final Plan plan;
        final Placement pl;
        final Topology topo;
        final SimConfig cfg;
        final StepGraph g;
        final Servers sv;
        final Routes routes;
        final PageLookup pages;
        final Route rt = new Route();
        final LatencyHistogram hist = new LatencyHistogram();
        final EventQueue queue = new EventQueue();
        final double[] done, delivered, start;
        final int[] pred;
        /** Why each step started when it did: a {@link WaitCause} ordinal. */
        final byte[] cause;
        final int[] next, version;
        final double[] tbFree, tbBusy;
        final int[][] waiters;
        /** Flits each CU (rank · CUs + cu) has outstanding, and the transfers waiting for its window. */
        final double[] outstanding;
        final java.util.ArrayDeque<Transfer>[] blocked;
        final double window;
        final int[] waiterCount;
        /** Batches per transfer: the config's, shared out over the plan's data-moving steps. */
        final int batchCap;
        long events;
        final Gemm gemm;
        /** Collective steps delivered: with a background GEMM the run stops when all are. */
        int deliveredSteps;
        /** The run stops at the first event past this time ({@link #opening}). */
        double until = Double.POSITIVE_INFINITY;
        /** Flits of the collective's transfers in memory so far, and by half of {@link #until} (-1 until then). */
        double landed, halfway = -1;

        Run(Plan plan, Accesses acc, Placement pl, Topology topo, SimConfig cfg, Gemm gemm) {
            this.gemm = gemm;
            this.plan = plan;
            this.pl = pl;
            this.topo = topo;
            this.cfg = cfg;
            g = new StepGraph(plan);
            if (pl.cuOfTb().length != g.tbCount) {
                throw new IllegalArgumentException("placement covers " + pl.cuOfTb().length + " of " + g.tbCount + " threadblocks");
            }
            sv = new Servers(topo, plan.ranks(), cfg.flitBytes());
            routes = new Routes(topo, sv, plan.ranks());
            pages = new PageLookup(acc.space(), pl, topo.stacks().size());
            int n = g.stepCount;
            done = nan(n);
            delivered = nan(n);
            start = nan(n);
            pred = new int[n];
            Arrays.fill(pred, -1);
            cause = new byte[n];
            next = new int[g.tbCount];
            version = new int[g.tbCount];
            tbFree = new double[g.tbCount];
            tbBusy = new double[g.tbCount];
            waiters = new int[n][];
            waiterCount = new int[n];
            outstanding = new double[plan.ranks() * topo.cus().size()];
            @SuppressWarnings("unchecked")
            java.util.ArrayDeque<Transfer>[] b = new java.util.ArrayDeque[outstanding.length];
            blocked = b;
            window = Math.max(1, topo.budgets().outstandingPerCu().value());
            batchCap = cfg.batchesPerTransfer(movingSteps(plan));
        }

        static double[] nan(int n) {
            double[] a = new double[n];
            Arrays.fill(a, Double.NaN);
            return a;
        }

        SimResult run() {
            loop();
            return result();
        }

        /** Runs the events in time order until none is left (or, with a background GEMM, the collective is delivered), or past {@link #until}. */
        void loop() {
            for (int t = 0; t < g.tbCount; t++) schedule(0, t);
            if (gemm != null) startGemm();
            while (!queue.isEmpty() && !(gemm != null && deliveredSteps == g.stepCount)) {
                queue.peek();
                if (queue.t > until / 2 && halfway < 0) halfway = landed;
                if (queue.t > until) return;
                events++;
                if (queue.w instanceof Parcel p) {
                    move(p, queue.t); // takes the event off the queue itself
                    continue;
                }
                queue.pop();
                if (queue.w instanceof Transfer t) batch(t, queue.t);
                else if (queue.w instanceof Tile t) tileBatch(t, queue.t);
                else if (queue.versionOf == version[queue.tbOf]) advance(queue.tbOf, queue.t);
            }
        }

        void schedule(double time, int tb) {
            queue.add(time, tb, ++version[tb], null);
        }

        void wait(int step, int tb) {
            int[] w = waiters[step];
            if (w == null) w = waiters[step] = new int[2];
            else if (waiterCount[step] == w.length) w = waiters[step] = Arrays.copyOf(w, w.length * 2);
            w[waiterCount[step]++] = tb;
        }

        void wake(int step, double time) {
            int n = waiterCount[step];
            if (n == 0) return;
            int[] w = waiters[step];
            waiters[step] = null;
            waiterCount[step] = 0;
            for (int i = 0; i < n; i++) schedule(Math.max(time, tbFree[w[i]]), w[i]);
        }

        /** Tries to start the threadblock's next step at {@code now}. */
        void advance(int tb, double now) {
            int s0 = g.tbStart[tb], s1 = g.tbStart[tb + 1];
            int s = s0 + next[tb];
            if (s >= s1) return;
            double ready = tbFree[tb];
            int why = s > s0 ? s - 1 : -1;
            WaitCause cz = s > s0 ? WaitCause.PREVIOUS_STEP : WaitCause.START;
            for (int d : g.deps[s]) {
                if (Double.isNaN(done[d])) {
                    wait(d, tb);
                    return;
                }
                if (done[d] > ready) {
                    ready = done[d];
                    why = d;
                    cz = WaitCause.DEPENDENCY;
                }
            }
            Step st = g.steps[s];
            if (st.op().receives || st.op() == OpKind.WAIT) {
                int snd = g.senderOf[s];
                if (snd >= 0) {
                    if (Double.isNaN(delivered[snd])) {
                        wait(snd, tb);
                        return;
                    }
                    if (delivered[snd] > ready) {
                        ready = delivered[snd];
                        why = snd;
                        cz = WaitCause.PEER_DATA;
                    }
                }
            }
            if (ready > now) {
                schedule(ready, tb);
                return;
            }
            start[s] = now;
            pred[s] = why;
            cause[s] = (byte) cz.ordinal();
            execute(s, tb, now);
        }

        void execute(int s, int tb, double now) {
            StepTransfer x = StepTransfer.of(g, s);
            if (x == null) {
                complete(s, tb, now);
                deliver(s, now);
                return;
            }
            batch(transfer(s, tb, g.rankOfTb[tb], x), now);
        }

        Transfer transfer(int s, int tb, int rank, StepTransfer x) {
            Transfer t = new Transfer();
            t.step = s;
            t.tb = tb;
            t.rank = rank;
            t.peer = x.peer();
            t.kind = x.kind();
            t.cu = pl.cuOfTb()[tb];
            t.src = x.src();
            t.dst = x.dst();
            t.bytes = t.dst == null ? 8 : x.count() * pages.chunkBytes();
            t.flits = Math.max(1, (t.bytes + cfg.flitBytes() - 1) / cfg.flitBytes());
            long batches = Math.min(batchCap, Math.max(1, t.flits / cfg.minBatchFlits()));
            t.batchFlits = (t.flits + batches - 1) / batches;
            t.domain = pl.domainOfTb()[tb];
            t.delivered = Double.NEGATIVE_INFINITY;
            return t;
        }

        /** Issues the transfer's next batch at {@code now}; schedules the following one. */
        void batch(Transfer t, double now) {
            long f0 = t.nextFlit, m = Math.min(t.batchFlits, t.flits - f0);
            int w0 = t.rank * topo.cus().size() + t.cu;
            if (t.admitted == 0) {
                // the CU's outstanding-request window: a flit holds a slot from issue until it is in memory
                if (outstanding[w0] >= window) {
                    if (blocked[w0] == null) blocked[w0] = new java.util.ArrayDeque<>();
                    blocked[w0].add(t);
                    return;
                }
                outstanding[w0] += m;
            }
            t.admitted = 0;
            t.nextFlit += m;
            int samples = (int) Math.min(m, cfg.samplesPerBatch());
            double w = (double) m / samples;
            // parcels: (src stack, exit, dst stack) with flit weights
            int[] keySrc = new int[samples], keyDst = new int[samples];
            Routes.Exit[] keyExit = new Routes.Exit[samples];
            double[] weight = new double[samples];
            int parcels = 0;
            for (int j = 0; j < samples; j++) {
                long f = f0 + (long) ((j + 0.5) * m / samples);
                long b = Math.min(f * cfg.flitBytes(), Math.max(0, t.bytes - 1));
                long sa = t.src == null ? -1 : pages.address(t.src, b);
                long da = t.dst == null ? -1 : pages.address(t.dst, b);
                int ss = pages.stack(sa), ds;
                Routes.Exit ex = null;
                if (t.kind == TransferKind.LOCAL) {
                    ds = pages.stack(da);
                } else {
                    long flitAddr = da >= 0 ? da / cfg.flitBytes() : Hash.mix(t.step * 131L + f);
                    ds = da >= 0 ? pages.stack(da) : Hash.pick(flitAddr, topo.stacks().size());
                    int dom = da >= 0 ? pages.domain(da) : t.domain;
                    if (t.kind == TransferKind.REMOTE_LOAD) {
                        // a get reads the peer's page: route by the source page
                        long ra = sa >= 0 ? sa / cfg.flitBytes() : flitAddr;
                        ex = routes.exit(t.rank, t.peer, pl.granularity(), sa >= 0 ? pages.domain(sa) : t.domain, ra);
                    } else {
                        ex = routes.exit(t.rank, t.peer, pl.granularity(), pl.direct() ? -1 : dom, flitAddr);
                    }
                }
                if (ds < 0) ds = ss >= 0 ? ss : 0;
                int k = 0;
                while (k < parcels && !(keySrc[k] == ss && keyDst[k] == ds && java.util.Objects.equals(keyExit[k], ex))) k++;
                if (k == parcels) {
                    keySrc[k] = ss;
                    keyDst[k] = ds;
                    keyExit[k] = ex;
                    parcels++;
                }
                weight[k] += w;
            }
            double issued = now;
            for (int k = 0; k < parcels; k++) {
                switch (t.kind) {
                    case REMOTE_STORE, SIGNAL -> routes.remoteStore(rt, t.rank, t.cu, keySrc[k], t.peer, keyDst[k], keyExit[k]);
                    case REMOTE_LOAD -> routes.remoteLoad(rt, t.rank, t.cu, t.peer, keySrc[k] < 0 ? 0 : keySrc[k], keyDst[k], keyExit[k]);
                    case LOCAL -> routes.local(rt, t.rank, t.cu, keySrc[k], keyDst[k]);
                }
                Parcel p = parcel().load(rt, weight[k], now, t);
                t.inFlight++;
                p.advance(sv.state, now + cfg.horizonNs());
                issued = Math.max(issued, p.issueTail);
                if (p.finished()) arrived(p);
                else queue.add(p.head, t.tb, 0, p);
            }
            t.issued = issued;
            if (t.nextFlit < t.flits) {
                queue.add(issued, t.tb, 0, t);
            } else if (t.kind.posted) {
                complete(t.step, t.tb, issued);
                if (t.inFlight == 0) deliver(t.step, t.delivered);
            } else if (t.inFlight == 0) {
                complete(t.step, t.tb, t.delivered);
                deliver(t.step, t.delivered);
            }
        }

        /** The parcel's event, still at the head of the queue: it moves on, and is queued again or arrives. */
        void move(Parcel p, double now) {
            p.advance(sv.state, now + cfg.horizonNs());
            if (p.finished()) {
                queue.pop();
                arrived(p);
            } else {
                queue.replaceTop(p.head, -1, 0, p);
            }
        }

        /** Finished parcels, for reuse. */
        final java.util.ArrayDeque<Parcel> spare = new java.util.ArrayDeque<>();

        Parcel parcel() {
            Parcel p = spare.poll();
            return p != null ? p : new Parcel();
        }

        /** A parcel's tail is in memory: record its latencies; the last one delivers the transfer. */
        void arrived(Parcel p) {
            if (p.owner instanceof Tile tile) {
                tileArrived(p, tile);
                return;
            }
            Transfer t = (Transfer) p.owner;
            t.delivered = Math.max(t.delivered, p.tail);
            landed += p.m;
            // One-way store latency: from the store's issue at the CU until the flit is written in
            // the destination stack (the memory access included).
            if (t.kind != TransferKind.LOCAL) hist.addSpread(p.head - p.headStore, p.tail - p.tailStore, p.m);
            double flits = p.m, tail = p.tail;
            p.owner = null;
            spare.push(p);
            release(t.rank * topo.cus().size() + t.cu, flits, tail);
            t.inFlight--;
            if (t.inFlight > 0 || t.nextFlit < t.flits) return;
            if (t.kind.posted) {
                if (!Double.isNaN(done[t.step])) deliver(t.step, t.delivered);
            } else {
                complete(t.step, t.tb, t.delivered);
                deliver(t.step, t.delivered);
            }
        }

        /** Frees window slots at {@code time} and admits the transfers waiting for them, in order. */
        void release(int w0, double flits, double time) {
            outstanding[w0] -= flits;
            java.util.ArrayDeque<Transfer> q = blocked[w0];
            while (q != null && !q.isEmpty() && outstanding[w0] < window) {
                Transfer t = q.poll();
                t.admitted = Math.min(t.batchFlits, t.flits - t.nextFlit);
                outstanding[w0] += t.admitted;
                queue.add(time, t.tb, 0, t);
            }
        }

        /** The threadblock is done with step {@code s} at {@code end} and moves on. */
        void complete(int s, int tb, double end) {
            done[s] = end;
            tbBusy[tb] += end - start[s];
            tbFree[tb] = end;
            next[tb]++;
            wake(s, end);
            schedule(end, tb);
        }

        /** Step {@code s}'s data (or signal) is at its destination. */
        void deliver(int s, double time) {
            if (Double.isNaN(delivered[s])) deliveredSteps++;
            delivered[s] = Math.max(time, done[s]);
            wake(s, delivered[s]);
        }

        // ---- the background GEMM ----

        void startGemm() {
            int[] cus = dev.nunac.passes.place.Placer.baselineCus(topo, gemm.tiles());
            long page = Math.max(1, topo.budgets().pageSize());
            long inPages = (gemm.inputBytes() + page - 1) / page, outPages = (gemm.outputBytes() + page - 1) / page;
            for (int r = 0; r < plan.ranks(); r++) {
                for (int b = 0; b < gemm.tiles(); b++) {
                    Tile t = new Tile();
                    t.rank = r;
                    t.cu = cus[b];
                    t.index = b;
                    // inputs of every tile first, then the outputs: pages dealt round-robin over the stacks
                    t.firstPage = b * inPages;
                    t.flits = Math.max(1, (gemm.inputBytes() + cfg.flitBytes() - 1) / cfg.flitBytes());
                    t.batchFlits = (t.flits + TILE_BATCHES - 1) / TILE_BATCHES;
                    t.last = 0;
                    queue.add(0, -1, 0, t);
                }
            }
            gemmOutputBase = gemm.tiles() * inPages;
            gemmOutPages = outPages;
        }

        long gemmOutputBase, gemmOutPages;

        /** Issues a tile's next batch: its flits split by the stack holding their page. */
        void tileBatch(Tile t, double now) {
            long f0 = t.nextFlit, m = Math.min(t.batchFlits, t.flits - f0);
            t.nextFlit += m;
            int nStacks = topo.stacks().size();
            long page = Math.max(1, topo.budgets().pageSize());
            double[] perStack = new double[nStacks];
            for (long f = f0; f < f0 + m; f++) perStack[(int) ((t.firstPage + f * cfg.flitBytes() / page) % nStacks)]++;
            double issued = now;
            for (int s = 0; s < nStacks; s++) {
                if (perStack[s] == 0) continue;
                if (t.phase == 0) routes.localLoad(rt, t.rank, t.cu, s);
                else routes.local(rt, t.rank, t.cu, -1, s);
                Parcel p = parcel().load(rt, perStack[s], now, t);
                t.inFlight++;
                p.advance(sv.state, now + cfg.horizonNs());
                issued = Math.max(issued, p.issueTail);
                if (p.finished()) tileArrived(p, t);
                else queue.add(p.head, -1, 0, p);
            }
            if (t.nextFlit < t.flits) queue.add(issued, -1, 0, t);
        }

        void tileArrived(Parcel p, Tile t) {
            t.last = Math.max(t.last, p.tail);
            p.owner = null;
            spare.push(p);
            t.inFlight--;
            if (t.inFlight > 0 || t.nextFlit < t.flits || t.phase == 1) return;
            // inputs in: compute, then store the output
            t.phase = 1;
            t.nextFlit = 0;
            t.flits = Math.max(1, (gemm.outputBytes() + cfg.flitBytes() - 1) / cfg.flitBytes());
            t.batchFlits = (t.flits + TILE_BATCHES - 1) / TILE_BATCHES;
            t.firstPage = gemmOutputBase + t.index * gemmOutPages;
            queue.add(t.last + gemm.computeNs(topo.cus().size()), -1, 0, t);
        }

        SimResult result() {
            double completion = 0;
            for (int s = 0; s < g.stepCount; s++) {
                if (Double.isNaN(done[s]) || Double.isNaN(delivered[s])) {
                    TbId tb = g.tbIds.id(g.tbOfStep[s]);
                    throw new IllegalStateException("the simulation stalled: r" + tb.rank() + " threadblock " + tb.index()
                            + " step " + g.steps[s].index() + " never ran (a receive without its send, or a dependency cycle)");
                }
                completion = Math.max(completion, delivered[s]);
            }
            List<TbTiming> tbs = new ArrayList<>(g.tbCount);
            for (int t = 0; t < g.tbCount; t++) {
                double fin = tbFree[t];
                tbs.add(new TbTiming(g.tbIds.id(t), pl.cuOfTb()[t], fin, tbBusy[t], Math.max(0, fin - tbBusy[t])));
            }
            List<Utilisation> util = new ArrayList<>();
            for (int i = 0; i < sv.count(); i++) {
                double b = sv.busy(i);
                if (b <= 0) continue;
                util.add(new Utilisation(sv.name(i), kindName(sv.kind(i)), b, completion > 0 ? b / completion : 0));
            }
            util.sort(Comparator.comparingDouble(Utilisation::busyNs).reversed().thenComparing(Utilisation::server));
            return new SimResult(completion, hist.stats(), hist, List.copyOf(util), List.copyOf(tbs), criticalPath(), events);
        }

        List<CriticalStep> criticalPath() {
            int last = -1;
            for (int s = 0; s < g.stepCount; s++) if (last < 0 || delivered[s] > delivered[last]) last = s;
            List<CriticalStep> out = new ArrayList<>();
            for (int s = last, guard = 0; s >= 0 && guard < g.stepCount; s = pred[s], guard++) {
                out.add(new CriticalStep(g.tbIds.id(g.tbOfStep[s]), g.steps[s].index(), g.steps[s].op().mnemonic(), start[s], delivered[s],
                        WaitCause.ofOrdinal(cause[s])));
            }
            java.util.Collections.reverse(out);
            return List.copyOf(out);
        }

        static String kindName(Servers.Kind k) {
            return switch (k) {
                case LINK -> "link";
                case STACK -> "stack";
                case PORT_OUT -> "port-out";
                case PORT_IN -> "port-in";
                case NIC_OUT -> "nic-out";
                case NIC_IN -> "nic-in";
                case CU -> "cu";
                case ROUTER_IN -> "router-in";
                case ROUTER_OUT -> "router-out";
            };
        }
    }
}
