package dev.nunac.passes.cost;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.OpKind;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.topology.Link;
import dev.nunac.topology.Nic;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A closed-form estimate of a placed plan's completion time, for ranking many candidate
 * placements before the simulator times the best few. It walks the plan's step graph as the
 * simulator does (a threadblock's steps in order, dependencies, a receive after its send's
 * data), and gives each data-moving step a time of its zero-load path latency plus its
 * serialisation: the longest drain time, at the step's level of the graph, of the resources its
 * bytes use — HBM stacks, scale-up ports (a hashed or NAR port set shares the bytes evenly), the
 * NoC links at the ends of its routes, its CU's injection and its CU router's injection, and its
 * CU's outstanding-request window. Steps at the same level (the
 * same number of data-moving steps before them on the longest chain) are taken to run together
 * and share those resources. A step's bytes are followed through sample offsets less than a
 * page apart, at most {@value #SAMPLES}, as the simulator samples flits.
 *
 * <p>Sends complete when their last byte is issued and deliver after the path latency; loads and
 * local copies complete on delivery; the estimate is the last delivery. The step graph, its
 * levels and the NoC link shares of every route are computed once per plan and shared by the
 * candidates, which may be estimated side by side.
 */
public final class AnalyticModel implements CostModel {
    /** Sample offsets per data-moving step. */
    static final int SAMPLES = 16;

    /** The placement-independent part, kept for the last plan estimated. */
    private Shape shape;

    @Override
    public String name() {
        return "analytic";
    }

    @Override
    public Estimate estimate(PlacementInput in, Placement placement) {
        Run run = new Run(shape(in), placement);
        double ns = run.run();
        return Estimate.of(ns, run.lastTb);
    }

    /** The placement-independent part for {@code in}, made once for the last input asked about (the ideal bound shares it). */
    synchronized Shape shape(PlacementInput in) {
        if (shape == null || shape.in != in) shape = new Shape(in);
        return shape;
    }

    /** The step graph, each step's kind and level, and the topology's routes, for one plan. */
    static final class Shape {
        final PlacementInput in;
        final Topology topo;
        final StepGraph g;
        /** Per step: its transfer's kind, null when it makes none. */
        final TransferKind[] kind;
        /** Per step: the peer rank of a remote step. */
        final int[] peer;
        final ChunkRef[] src, dst;
        final int[] count;
        /** Data-moving steps on the longest chain up to and including each step. */
        final int[] level;
        /** Steps in an order that respects every dependency. */
        final int[] order;
        final int levels;
        /** The data-moving steps by level, in step order within one: level L's are levelSteps[levelStart[L] .. levelStart[L+1]). */
        final int[] levelSteps, levelStart;
        /** The most data-moving steps at one level. */
        final int widest;
        final Routes routes;
        /** Per step: whether it waits for its sender's data or signal ({@link #waitsForSender}), read by every walk of the steps. */
        private final boolean[] waits;

        Shape(PlacementInput in) {
            this.in = in;
            this.topo = in.topology();
            g = new StepGraph(in.plan());
            int n = g.stepCount;
            kind = new TransferKind[n];
            peer = new int[n];
            src = new ChunkRef[n];
            dst = new ChunkRef[n];
            count = new int[n];
            waits = new boolean[n];
            for (int s = 0; s < n; s++) {
                OpKind op = g.steps[s].op();
                waits[s] = (op.receives || op == OpKind.WAIT) && g.senderOf[s] >= 0;
                StepTransfer x = StepTransfer.of(g, s);
                if (x == null) continue;
                kind[s] = x.kind();
                peer[s] = x.peer();
                src[s] = x.src();
                dst[s] = x.dst();
                count[s] = x.count();
            }
            level = new int[n];
            order = new int[n];
            levels = walk();
            levelStart = new int[levels + 1];
            for (int s = 0; s < n; s++) if (kind[s] != null) levelStart[level[s] + 1]++;
            int w = 0;
            for (int l = 0; l < levels; l++) {
                w = Math.max(w, levelStart[l + 1]);
                levelStart[l + 1] += levelStart[l];
            }
            widest = w;
            levelSteps = new int[levelStart[levels]];
            int[] next = Arrays.copyOf(levelStart, levels);
            for (int s = 0; s < n; s++) if (kind[s] != null) levelSteps[next[level[s]]++] = s;
            routes = new Routes(topo);
        }

        /**
         * Orders the steps so that each follows its threadblock's previous step, its dependencies
         * and its sender, and gives each its level. Returns the number of levels.
         */
        private int walk() {
            int n = g.stepCount;
            int[] waiting = new int[n];
            int[][] wakes = new int[n][];
            int[] wakeCount = new int[n];
            for (int s = 0; s < n; s++) {
                int tb = g.tbOfStep[s];
                if (s > g.tbStart[tb]) edge(s - 1, s, waiting, wakes, wakeCount);
                for (int d : g.deps[s]) edge(d, s, waiting, wakes, wakeCount);
                if (waitsForSender(s)) edge(g.senderOf[s], s, waiting, wakes, wakeCount);
            }
            int[] queue = new int[n];
            int head = 0, tail = 0;
            for (int s = 0; s < n; s++) if (waiting[s] == 0) queue[tail++] = s;
            int max = 0;
            while (head < tail) {
                int s = queue[head++];
                order[head - 1] = s;
                if (kind[s] != null) level[s]++;
                max = Math.max(max, level[s]);
                for (int i = 0; i < wakeCount[s]; i++) {
                    int w = wakes[s][i];
                    level[w] = Math.max(level[w], level[s]);
                    if (--waiting[w] == 0) queue[tail++] = w;
                }
            }
            if (tail < n) throw new IllegalStateException("the plan's steps form a cycle; the checker should have refused it");
            return max + 1;
        }

        boolean waitsForSender(int s) {
            return waits[s];
        }

        private static void edge(int from, int to, int[] waiting, int[][] wakes, int[] wakeCount) {
            waiting[to]++;
            int[] w = wakes[from];
            if (w == null) w = wakes[from] = new int[2];
            else if (wakeCount[from] == w.length) w = wakes[from] = Arrays.copyOf(w, w.length * 2);
            w[wakeCount[from]++] = to;
        }

        /** Walks the steps in order with each data-moving step's issue and path times; the last delivery, and whose. */
        double[] timeline(double[] issue, double[] lat) {
            int n = g.stepCount;
            double[] done = new double[n], delivered = new double[n];
            double end = 0;
            int lastTb = -1;
            for (int s : order) {
                int tb = g.tbOfStep[s];
                double start = s > g.tbStart[tb] ? done[s - 1] : 0;
                for (int d : g.deps[s]) start = Math.max(start, done[d]);
                if (waitsForSender(s)) start = Math.max(start, delivered[g.senderOf[s]]);
                if (kind[s] == null) {
                    done[s] = delivered[s] = start;
                } else {
                    double issued = start + issue[s];
                    delivered[s] = issued + lat[s];
                    done[s] = kind[s].posted ? issued : delivered[s];
                }
                if (delivered[s] > end || lastTb < 0) {
                    end = Math.max(end, delivered[s]);
                    lastTb = tb;
                }
            }
            return new double[] {end, lastTb};
        }
    }

    /**
     * The topology's routes as the analytic model needs them: port sets by number, and for a path
     * between two nodes — a router, or a port set whose ports share the traffic evenly — its mean
     * latency and the NoC links where its traffic bunches, each with the share of the traffic it
     * carries: the first link out of each source router and the last into each destination
     * router. Contention in the middle of the mesh is left to the simulator.
     */
    static final class Routes {
        final Topology topo;
        final int routers;
        final int[] linkFrom, linkTo;
        final double[] linkBw;
        final int[] linkOf;
        final List<int[]> sets = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Map<String, Integer> setIds = new HashMap<>();
        private final Map<Long, Share> shares = new ConcurrentHashMap<>();

        /** A path's links and the share of its traffic each carries, and its mean NoC latency. */
        record Share(int[] links, double[] weight, double ns) {}

        Routes(Topology topo) {
            this.topo = topo;
            routers = topo.routers().size();
            List<Link> ls = topo.links();
            linkFrom = new int[ls.size() * 2];
            linkTo = new int[ls.size() * 2];
            linkBw = new double[ls.size() * 2];
            linkOf = new int[routers * routers];
            Arrays.fill(linkOf, -1);
            for (int i = 0; i < ls.size(); i++) {
                for (int dir = 0; dir < 2; dir++) {
                    int id = 2 * i + dir;
                    linkFrom[id] = dir == 0 ? ls.get(i).from() : ls.get(i).to();
                    linkTo[id] = dir == 0 ? ls.get(i).to() : ls.get(i).from();
                    linkBw[id] = ls.get(i).bandwidthGBs();
                    linkOf[linkFrom[id] * routers + linkTo[id]] = id;
                }
            }
        }

        /** Per port set, which ports it holds, by port index; added before the set's number is handed out. */
        private final List<boolean[]> members = new java.util.concurrent.CopyOnWriteArrayList<>();

        /** The number of a port set, by content. */
        synchronized int set(int[] ports) {
            return setIds.computeIfAbsent(Arrays.toString(ports), k -> {
                boolean[] m = new boolean[topo.ports().size()];
                for (int x : ports) m[x] = true;
                members.add(m);
                sets.add(ports.clone());
                return sets.size() - 1;
            });
        }

        /** Which ports port set {@code set} holds, by port index. */
        boolean[] members(int set) {
            return members.get(set);
        }

        /** A node: a router, or port set {@code s} as {@code routers + s}. */
        int setNode(int s) {
            return routers + s;
        }

        /** The links and latency from node {@code a} to node {@code b}. */
        Share share(int a, int b) {
            long key = (long) a * (routers + 1L << 20) + b;
            Share sh = shares.get(key);
            if (sh == null) {
                sh = compute(a, b);
                shares.put(key, sh);
            }
            return sh;
        }

        private Share compute(int a, int b) {
            int[] as = a < routers ? new int[] {a} : routersOf(sets.get(a - routers));
            int[] bs = b < routers ? new int[] {b} : routersOf(sets.get(b - routers));
            Map<Integer, Double> w = new java.util.TreeMap<>();
            double ns = 0;
            int paths = as.length * bs.length;
            for (int x : as) {
                for (int y : bs) {
                    int[] p = topo.routerPath(x, y);
                    // the links where routes bunch: the first out of the source and the last into the destination
                    if (p.length > 1) {
                        w.merge(linkOf[p[0] * routers + p[1]], 1.0 / paths, Double::sum);
                        if (p.length > 2) w.merge(linkOf[p[p.length - 2] * routers + p[p.length - 1]], 1.0 / paths, Double::sum);
                    }
                    ns += topo.nocLatencyNs(x, y);
                }
            }
            int[] links = new int[w.size()];
            double[] weight = new double[w.size()];
            int i = 0;
            for (var e : w.entrySet()) {
                links[i] = e.getKey();
                weight[i++] = e.getValue();
            }
            return new Share(links, weight, paths == 0 ? 0 : ns / paths);
        }

        private int[] routersOf(int[] ports) {
            int[] r = new int[ports.length];
            for (int i = 0; i < ports.length; i++) r[i] = topo.ports().get(ports[i]).router();
            return r;
        }
    }

    /** A route of one rank's NoC, from node {@code a} to node {@code b} ({@link Routes#share}). */
    private record Leg(int rank, int a, int b) {}

    /**
     * One estimate of one placement. Loads are summed sparsely, keyed by (level, rank) and
     * resource, one level at a time: steps share resources only with steps of their own level,
     * so the maps are emptied between levels and stay small enough to stay in cache.
     */
    private static final class Run {
        final Shape sh;
        final StepGraph g;
        final Routes routes;
        final Placement pl;
        final Topology topo;
        final PageLookup pages;
        final boolean direct;
        final int ranks, nStacks, nCus, boxSize;
        final double cuToNoc, memNs, linkNs, netNs, window, flitBytes = 256;
        final int[] allPorts, nicPorts;
        final double[] portBw, stackBw;
        /** At the current level: bytes per (rank, stack) and (rank, link); per ((level, rank), port set) out and in. */
        final DenseSums stackLoad, linkLoad;
        final LongDoubleMap setOut, setIn;
        /** The port sets used at each (level, rank), out and in. */
        final Map<Long, List<Integer>> usedOut = new HashMap<>(), usedIn = new HashMap<>();
        /** Bytes per route at the current level, spread over the route's links once all are known. */
        final DenseSums legBytes = new DenseSums(1024);
        /** Route ids by (rank, a, b) packed into a long. */
        final LongDoubleMap legIds = new LongDoubleMap(256);
        final List<Leg> legList = new ArrayList<>();
        /** Flits issued per (rank, CU) and per (rank, router of the CU) at the current level. */
        final DenseSums cuFlits, routerFlits;
        /** Per flit: a CU's injection; per router, its injection. */
        final double cuSvc;
        final double[] routerInSvc;
        /** Drain times at the current level: of port sets by ((level, rank), set, direction), of routes by id. */
        final LongDoubleMap drainMemo;
        final DenseSums linkMemo = new DenseSums(1024);
        final int nLinks;
        final Map<Long, int[]> exitSets = new HashMap<>();
        /**
         * The current level's steps, by position j in the level: their samples' source and
         * destination stacks in stackBuf[stackAt[j] .. stackAt[j+1]), their distinct routes (ids) in
         * legBuf[legAt[j] .. legAt[j+1]). Only serialisation at the same level reads them, so two
         * flat buffers reused level after level stand for two small arrays per step.
         */
        int[] stackBuf = new int[1024], legBuf = new int[1024];
        int stackEnd, legEnd;
        final int[] stackAt, legAt;
        /** A sample's routes before deduplication, and a step's distinct ones. */
        final int[] got = new int[3];
        int[] myLegs = new int[8];
        /** Per step: the path latency of its slowest sample, and the mean (a window slot's round trip). */
        final double[] lat, rtt;
        int lastTb = -1;

        Run(Shape sh, Placement pl) {
            this.sh = sh;
            this.g = sh.g;
            this.routes = sh.routes;
            this.pl = pl;
            this.topo = sh.topo;
            pages = new PageLookup(sh.in.accesses().space(), pl, topo.stacks().size());
            direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
            ranks = sh.in.plan().ranks();
            nStacks = topo.stacks().size();
            nCus = topo.cus().size();
            int box = topo.scaleOut().map(so -> so.gpusPerBox()).orElse(0);
            if (box <= 0) box = topo.scaleUp().gpus();
            boxSize = box <= 0 ? ranks : box;
            cuToNoc = topo.latencies().cuToNocNs().value();
            memNs = topo.memory().latencyNs().value();
            linkNs = topo.latencies().linkNs().value();
            netNs = topo.scaleOut().map(so -> so.latencyNs().value()).orElse(0.0);
            window = Math.max(1, topo.budgets().outstandingPerCu().value());
            allPorts = topo.scaleUpPorts().stream().mapToInt(p -> p.index()).toArray();
            nicPorts = topo.scaleOut().map(so -> so.nics().stream().mapToInt(Nic::port).toArray()).orElse(new int[0]);
            portBw = topo.ports().stream().mapToDouble(p -> p.bandwidthGBs()).toArray();
            stackBw = topo.stacks().stream().mapToDouble(s -> s.bandwidthGBs()).toArray();
            stackAt = new int[sh.widest + 1];
            legAt = new int[sh.widest + 1];
            lat = new double[g.stepCount];
            rtt = new double[g.stepCount];
            // the loads of one level are summed in arrays by (rank, resource) and in maps sized by the
            // keys a level can have, not by its steps: a wide level of a large plan has hundreds of
            // thousands of steps on a few thousand keys, and tables sized by steps are mostly empty
            // slots that miss the cache on every probe
            nLinks = routes.linkBw.length;
            stackLoad = new DenseSums(ranks * nStacks);
            linkLoad = new DenseSums(ranks * nLinks);
            cuFlits = new DenseSums(ranks * nCus);
            routerFlits = new DenseSums(ranks * routes.routers);
            cuSvc = flitBytes / topo.cuInjectionGBs();
            routerInSvc = new double[routes.routers];
            for (int r = 0; r < routes.routers; r++) routerInSvc[r] = flitBytes / topo.routerInjectionGBs(r);
            int n = Math.min(Math.max(64, sh.widest), 4 * ranks);
            setOut = new LongDoubleMap(n);
            setIn = new LongDoubleMap(n);
            drainMemo = new LongDoubleMap(n);
        }

        double run() {
            double[] issue = new double[g.stepCount];
            for (int l = 0; l < sh.levels; l++) {
                int from = sh.levelStart[l], to = sh.levelStart[l + 1];
                if (from == to) continue;
                stackEnd = legEnd = 0;
                for (int i = from; i < to; i++) {
                    stackAt[i - from] = stackEnd;
                    legAt[i - from] = legEnd;
                    sample(sh.levelSteps[i]);
                }
                stackAt[to - from] = stackEnd;
                legAt[to - from] = legEnd;
                for (int j = 0; j < legBytes.size(); j++) {
                    int id = legBytes.index(j);
                    double w = legBytes.get(id);
                    Leg leg = legList.get(id);
                    Routes.Share share = share(leg.a(), leg.b());
                    int base = leg.rank() * nLinks;
                    for (int i = 0; i < share.links().length; i++) linkLoad.add(base + share.links()[i], w * share.weight()[i]);
                }
                for (int i = from; i < to; i++) issue[sh.levelSteps[i]] = serialisation(sh.levelSteps[i], i - from);
                for (LongDoubleMap m : new LongDoubleMap[] {setOut, setIn, drainMemo}) m.clear();
                for (DenseSums m : new DenseSums[] {stackLoad, linkLoad, legBytes, cuFlits, routerFlits, linkMemo}) m.clear();
                usedOut.clear();
                usedIn.clear();
            }
            double[] r = sh.timeline(issue, lat);
            lastTb = (int) r[1];
            return r[0];
        }

        long lr(int lvl, int rank) {
            return (long) lvl * ranks + rank;
        }

        /** {@link Routes#share}, memoised per run without boxing (a step's samples ask for the same few routes). */
        private final LongDoubleMap shareIds = new LongDoubleMap();
        private final List<Routes.Share> shareList = new ArrayList<>();

        Routes.Share share(int a, int b) {
            long key = ((long) a << 32) | b;
            int id = (int) shareIds.getOrDefault(key, -1);
            if (id >= 0) return shareList.get(id);
            Routes.Share sh = routes.share(a, b);
            shareIds.add(key, shareList.size());
            shareList.add(sh);
            return sh;
        }

        /** The port set a store from {@code rank} to {@code peer} leaves by (0) and arrives through (1), as set numbers. */
        int[] exits(int rank, int peer, int domain) {
            boolean cross = peer / boxSize != rank / boxSize;
            long key = cross ? -1 : direct ? -2 - ((long) rank * ranks + peer)
                    : domain < 0 || pl.granularity() <= 1 ? -3 - (long) ranks * ranks : domain;
            return exitSets.computeIfAbsent(key, x -> {
                if (cross) return new int[] {routes.set(nicPorts), routes.set(nicPorts)};
                if (direct) {
                    int gs = topo.scaleUp().gpus();
                    return new int[] {routes.set(topo.portsToPeer(rank % gs, peer % gs)), routes.set(topo.portsToPeer(peer % gs, rank % gs))};
                }
                int[] p = domain >= 0 && pl.granularity() > 1 ? topo.narDomains(pl.granularity()).get(domain).ports() : allPorts;
                int s = routes.set(p);
                return new int[] {s, s};
            });
        }

        /** Follows a step's bytes through its samples: where they are read and written, and their routes. */
        void sample(int s) {
            TransferKind kind = sh.kind[s];
            int rank = g.rankOfStep(s), q = sh.peer[s];
            int tb = g.tbOfStep[s];
            int cr = topo.cus().get(pl.cuOfTb()[tb]).router();
            long bytes = kind == TransferKind.SIGNAL ? 8 : (long) sh.count[s] * pl.chunkBytes();
            segments(sh.src[s], sh.dst[s], bytes);
            long[] cuts = this.cuts;
            int n = cutCount - 1;
            int lvl = sh.level[s];
            int srcRank = kind.srcRank(rank, q), dstRank = kind.dstRank(rank, q);
            if (stackEnd + 2 * n > stackBuf.length) stackBuf = Arrays.copyOf(stackBuf, Math.max(2 * stackBuf.length, stackEnd + 2 * n));
            int nLegs = 0;
            double latSum = 0, latMax = 0;
            for (int j = 0; j < n; j++) {
                long b = (cuts[j] + cuts[j + 1]) / 2;
                double w = cuts[j + 1] - cuts[j];
                long sa = sh.src[s] == null ? -1 : pages.address(sh.src[s], b);
                long da = sh.dst[s] == null ? -1 : pages.address(sh.dst[s], b);
                int ss = kind == TransferKind.SIGNAL ? -1 : pages.stack(sa), ds = kind == TransferKind.SIGNAL ? -1 : pages.stack(da);
                stackBuf[stackEnd++] = ss;
                stackBuf[stackEnd++] = ds;
                if (ss >= 0) stackLoad.add(srcRank * nStacks + ss, w);
                if (ds >= 0) stackLoad.add(dstRank * nStacks + ds, w);
                double l;
                int ng = 0;
                if (kind == TransferKind.LOCAL) {
                    l = 0;
                    if (ss >= 0) {
                        l += cuToNoc + share(cr, stackRouter(ss)).ns() + memNs;
                        got[ng++] = leg(lvl, rank, stackRouter(ss), cr, w);
                        l += share(stackRouter(ss), cr).ns();
                    }
                    got[ng++] = leg(lvl, rank, cr, stackRouter(ds), w);
                    l += cuToNoc + share(cr, stackRouter(ds)).ns() + memNs;
                } else {
                    int domain = pl.direct() ? -1 : kind == TransferKind.SIGNAL ? pl.domainOfTb()[tb]
                            : kind == TransferKind.REMOTE_LOAD ? (sa >= 0 ? pages.domain(sa) : -1) : (da >= 0 ? pages.domain(da) : -1);
                    int[] ex = exits(rank, q, domain);
                    int out = routes.setNode(ex[0]), in = routes.setNode(ex[1]);
                    double net = rank / boxSize != q / boxSize ? netNs : linkNs;
                    if (kind == TransferKind.REMOTE_LOAD) {
                        // the request goes out and to the stack on the peer (latency only); the data comes back and is stored
                        ports(setOut, usedOut, lr(lvl, q), ex[1], w);
                        ports(setIn, usedIn, lr(lvl, rank), ex[0], w);
                        got[ng++] = leg(lvl, q, stackRouter(ss), in, w);
                        got[ng++] = leg(lvl, rank, out, cr, w);
                        got[ng++] = leg(lvl, rank, cr, stackRouter(ds), w);
                        l = cuToNoc + share(cr, out).ns() + net + share(in, stackRouter(ss)).ns() + memNs
                                + share(stackRouter(ss), in).ns() + net + share(out, cr).ns() + cuToNoc
                                + share(cr, stackRouter(ds)).ns() + memNs;
                    } else {
                        ports(setOut, usedOut, lr(lvl, rank), ex[0], w);
                        ports(setIn, usedIn, lr(lvl, q), ex[1], w);
                        l = 0;
                        if (ss >= 0) {
                            got[ng++] = leg(lvl, rank, stackRouter(ss), cr, w);
                            l += cuToNoc + share(cr, stackRouter(ss)).ns() + memNs + share(stackRouter(ss), cr).ns();
                        }
                        got[ng++] = leg(lvl, rank, cr, out, w);
                        l += cuToNoc + share(cr, out).ns() + net;
                        if (ds >= 0) {
                            got[ng++] = leg(lvl, q, in, stackRouter(ds), w);
                            l += share(in, stackRouter(ds)).ns() + memNs;
                        }
                    }
                }
                for (int x = 0; x < ng; x++) {
                    boolean seen = false;
                    for (int y = 0; y < nLegs && !seen; y++) seen = myLegs[y] == got[x];
                    if (seen) continue;
                    if (nLegs == myLegs.length) myLegs = Arrays.copyOf(myLegs, nLegs * 2);
                    myLegs[nLegs++] = got[x];
                }
                latSum += l;
                latMax = Math.max(latMax, l);
            }
            if (legEnd + nLegs > legBuf.length) legBuf = Arrays.copyOf(legBuf, Math.max(2 * legBuf.length, legEnd + nLegs));
            System.arraycopy(myLegs, 0, legBuf, legEnd, nLegs);
            legEnd += nLegs;
            // the last flit decides when the step has delivered: the slowest sample's path
            lat[s] = latMax;
            rtt[s] = latSum / n;
            cuFlits.add(rank * nCus + pl.cuOfTb()[tb], Math.ceil(bytes / flitBytes));
            routerFlits.add(rank * routes.routers + cr, Math.ceil(bytes / flitBytes));
        }

        /** The cuts {@link #segments} found, the first {@link #cutCount} of them (reused: one step at a time). */
        private final long[] cuts = new long[SAMPLES + 2];
        private int cutCount;

        /**
         * Where a step's bytes change page, in its source or its destination: the offsets (from 0 to
         * {@code bytes}) that cut it into pieces lying each in one source page and one destination
         * page, into {@link #cuts}. Past {@value #SAMPLES} pieces, {@value #SAMPLES} equal ones: a
         * large transfer's pages are followed by sample.
         */
        void segments(ChunkRef src, ChunkRef dst, long bytes) {
            long total = Math.max(1, bytes);
            long[] cut = cuts;
            int n = 0;
            cut[n++] = 0;
            cut[n++] = total;
            long page = Math.max(1, pl.pageBytes());
            for (int side = 0; side < 2; side++) {
                ChunkRef ref = side == 0 ? src : dst;
                if (ref == null || bytes <= 1) continue;
                for (int c = 0; c < ref.count() && n >= 0; c++) {
                    long c0 = c * pl.chunkBytes(), c1 = Math.min(bytes, c0 + pl.chunkBytes());
                    n = push(cut, n, c0);
                    long a = pages.address(ref, c0); // the first byte of the ref's chunk c
                    if (a < 0) continue;
                    long off = a & ((1L << 40) - 1);
                    for (long b = c0 + (page - off % page) % page; b < c1 && n >= 0; b += page) if (b > c0) n = push(cut, n, b);
                }
            }
            if (n >= 0) n = distinct(cut, n);
            if (n < 0 || n > SAMPLES + 1) {
                for (int j = 0; j <= SAMPLES; j++) cut[j] = total * j / SAMPLES;
                n = SAMPLES + 1;
            }
            cutCount = n;
        }

        /**
         * Adds a cut to the first {@code n} of {@code cut} (distinct once sorted); returns the new
         * count, or -1 once there are more than {@value #SAMPLES} + 1 distinct cuts (or already were).
         */
        private static int push(long[] cut, int n, long v) {
            if (n < 0) return -1;
            if (n == cut.length) n = distinct(cut, n);
            if (n == cut.length) return -1;
            cut[n++] = v;
            return n;
        }

        /** Sorts the first {@code n} values and drops repeats; returns how many remain. */
        private static int distinct(long[] v, int n) {
            Arrays.sort(v, 0, n);
            int m = 0;
            for (int i = 0; i < n; i++) if (m == 0 || v[i] != v[m - 1]) v[m++] = v[i];
            return m;
        }

        /** Records {@code w} bytes on a route of a rank at a level; returns the route's id. */
        int leg(int lvl, int rank, int a, int b, double w) {
            long k = ((long) rank << 42) | ((long) a << 21) | b;
            int id;
            double known = legIds.getOrDefault(k, -1);
            if (known >= 0) {
                id = (int) known;
            } else {
                id = legList.size();
                legIds.add(k, id);
                legList.add(new Leg(rank, a, b));
            }
            legBytes.add(id, w);
            return id;
        }

        /** Adds {@code w} bytes to a port set's total at a (level, rank) and notes the set as used there. */
        void ports(LongDoubleMap totals, Map<Long, List<Integer>> used, long lr, int set, double w) {
            long key = (lr << 16) | set;
            if (!totals.contains(key)) used.computeIfAbsent(lr, x -> new ArrayList<>(2)).add(set);
            totals.add(key, w);
        }

        int stackRouter(int s) {
            return topo.stacks().get(s).router();
        }

        /** The longest drain time (ns) over the resources a step uses, at its level; {@code at} is its position in the level. */
        double serialisation(int s, int at) {
            TransferKind kind = sh.kind[s];
            int rank = g.rankOfStep(s), q = sh.peer[s], lvl = sh.level[s];
            int srcRank = kind.srcRank(rank, q), dstRank = kind.dstRank(rank, q);
            double worst = 0;
            for (int j = stackAt[at]; j < stackAt[at + 1]; j += 2) {
                int a = stackBuf[j], b = stackBuf[j + 1];
                if (a >= 0) worst = Math.max(worst, stackLoad.get(srcRank * nStacks + a) / stackBw[a]);
                if (b >= 0) worst = Math.max(worst, stackLoad.get(dstRank * nStacks + b) / stackBw[b]);
            }
            for (int x = legAt[at]; x < legAt[at + 1]; x++) {
                int id = legBuf[x];
                Leg leg = legList.get(id);
                // a route from a port set is the ingress on its rank, one to a port set the egress
                if (leg.a() >= routes.routers) worst = Math.max(worst, portDrain(setIn, usedIn, lvl, leg.rank(), leg.a() - routes.routers, 1));
                if (leg.b() >= routes.routers) worst = Math.max(worst, portDrain(setOut, usedOut, lvl, leg.rank(), leg.b() - routes.routers, 0));
                worst = Math.max(worst, linkDrain(lvl, id));
            }
            // the CU's window: a flit holds a slot from issue until it is in memory, so flits past
            // the window's worth wait for earlier ones to land
            int cu = pl.cuOfTb()[g.tbOfStep[s]];
            double flits = cuFlits.get(rank * nCus + cu);
            worst = Math.max(worst, Math.max(0, flits - window) * rtt[s] / window);
            // the CU's injection, and its router's, shared by the steps of the level issued there
            int cr = topo.cus().get(cu).router();
            worst = Math.max(worst, flits * cuSvc);
            worst = Math.max(worst, routerFlits.get(rank * routes.routers + cr) * routerInSvc[cr]);
            return worst;
        }

        /**
         * The longest drain time of any port of {@code set} on a rank at a level, in one direction:
         * each port carries its share of every set used there that holds it.
         */
        double portDrain(LongDoubleMap totals, Map<Long, List<Integer>> used, int lvl, int rank, int set, int dir) {
            long lrk = lr(lvl, rank);
            long key = (((lrk << 16) | set) << 2) | 2 | dir;
            if (drainMemo.contains(key)) return drainMemo.get(key);
            double best = 0;
            List<Integer> sets = used.getOrDefault(lrk, List.of());
            double[] share = new double[sets.size()];
            boolean[][] holds = new boolean[sets.size()][];
            for (int i = 0; i < share.length; i++) {
                share[i] = totals.get((lrk << 16) | sets.get(i)) / routes.sets.get(sets.get(i)).length;
                holds[i] = routes.members(sets.get(i));
            }
            for (int p : routes.sets.get(set)) {
                double load = 0;
                for (int i = 0; i < share.length; i++) if (holds[i][p]) load += share[i];
                best = Math.max(best, load / portBw[p]);
            }
            drainMemo.add(key, best);
            return best;
        }

        /** The longest drain time of any link on a route at a level. */
        double linkDrain(int lvl, int legId) {
            if (linkMemo.contains(legId)) return linkMemo.get(legId);
            Leg leg = legList.get(legId);
            int base = leg.rank() * nLinks;
            double best = 0;
            Routes.Share share = share(leg.a(), leg.b());
            for (int l : share.links()) best = Math.max(best, linkLoad.get(base + l) / routes.linkBw[l]);
            linkMemo.add(legId, best);
            return best;
        }
    }
}
