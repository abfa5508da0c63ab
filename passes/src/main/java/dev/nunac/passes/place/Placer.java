package dev.nunac.passes.place;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.alloc.LogicalGroup;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.topology.ComputeUnit;
import dev.nunac.topology.Nic;
import dev.nunac.topology.ScaleOut;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Physical placement (paper §4.2.2, Algorithm 1), the baselines of §5.3 and nunac's balanced
 * variant, from one code path: a pure function of its input, a policy and a NAR granularity.
 *
 * <p>NUNA-aware compute: each threadblock's traffic goes through a NAR domain
 * ({@link DomainAssignment}: round-robin over logical groups for the paper's NAP, balanced for
 * {@link Policy#BALANCED}); on direct topologies a threadblock's ports are the ones that reach its
 * peer, and a peer in another box is reached through the GPU's NIC ports (the GPUDirect RDMA
 * path). Threadblocks, in logical-group order, take the first CU, in order of distance to their
 * ports, whose remaining outstanding-request budget fits their demand (bytes in 256 B requests,
 * capped by the CU's window) and that has a threadblock slot left. NUNA-aware memory: walking the
 * groups again, each chunk not yet placed asks for the nearest stack with in-flight budget left —
 * nearest its threadblock's CU for a local chunk, nearest the receiving ports on the peer for a
 * remote one — and {@link PageAllocator} settles pages two chunks ask differently for by cost.
 * Under the balanced policy a shared read-only chunk's pages are spread over the stacks nearest
 * its readers instead.
 *
 * <p>Baselines: default compute follows the hardware's dispatch rule (block b to die b mod n,
 * the free CUs of a die in turn, visited in a stride spread over the die); near-data compute
 * takes the CU nearest the stack holding most of the threadblock's local pages; baseline memory
 * deals pages round-robin over the stacks, in the caller's natural layout.
 */
public final class Placer {
    /** Bytes per memory request: the budget unit of a CU's outstanding-request window. */
    public static final int REQUEST_BYTES = 256;

    private Placer() {}

    public static Placement place(PlacementInput in, LogicalGroups groups, Policy policy, int granularity) {
        return place(in, groups, policy, granularity, null);
    }

    /**
     * As {@link #place(PlacementInput, LogicalGroups, Policy, int)}, with the NAR domain of each
     * threadblock given ({@code domains}, indexed like the plan's threadblocks) instead of the
     * policy's own assignment: for refining a placement. Only policies that place threadblocks
     * near their ports read it.
     */
    public static Placement place(PlacementInput in, LogicalGroups groups, Policy policy, int granularity, int[] domains) {
        return place(in, groups, policy, granularity, domains, false);
    }

    /**
     * As above; {@code spread}: under the balanced policy, each threadblock takes the CU whose
     * injection would pass its flits soonest ({@code takeSoonest}) instead of the nearest with
     * window left.
     */
    public static Placement place(PlacementInput in, LogicalGroups groups, Policy policy, int granularity, int[] domains, boolean spread) {
        return new Run(in, groups, policy, granularity, domains, spread && policy.balanced).run();
    }

    /** The domains a policy's own assignment gives the threadblocks (-1: hashed, or none applies). */
    public static int[] domains(PlacementInput in, LogicalGroups groups, Policy policy, int granularity) {
        boolean direct = in.topology().scaleUp().model() == ScaleUpModel.DIRECT;
        int n = in.accesses().threadblocks().size();
        if (direct || policy.compute != Policy.Compute.NEAR_PORTS || granularity <= 1) {
            int[] none = new int[n];
            Arrays.fill(none, -1);
            return none;
        }
        return policy.balanced ? DomainAssignment.balanced(in, groups, granularity)
                : DomainAssignment.roundRobin(groups, granularity, n);
    }

    /**
     * The CUs the hardware's dispatch rule gives the blocks of a kernel launched alone: block b
     * to its die's CUs in dispatch order (as {@code ua} places a collective's threadblocks), for
     * a background kernel beside a collective.
     */
    public static int[] baselineCus(Topology topo, int blocks) {
        Map<Integer, int[]> cusOfDie = new HashMap<>();
        for (ComputeUnit c : topo.cus()) cusOfDie.merge(c.die(), new int[] {c.index()}, Placer::concat);
        cusOfDie.replaceAll((die, cus) -> spread(cus));
        int[] all = spread(topo.cus().stream().mapToInt(ComputeUnit::index).toArray());
        Map<Integer, Integer> cursor = new HashMap<>();
        int[] out = new int[blocks];
        for (int b = 0; b < blocks; b++) {
            int die = topo.dispatch().dieOfBlock(b);
            int[] cus = die < 0 ? all : cusOfDie.getOrDefault(die, all);
            int i = cursor.getOrDefault(die, 0);
            out[b] = cus[i % cus.length];
            cursor.put(die, i + 1);
        }
        return out;
    }

    /** GPUs per box: the scale-out box size, the scale-up pod, or the whole plan. */
    static int boxSize(Plan plan, Topology topo) {
        int box = topo.scaleOut().map(ScaleOut::gpusPerBox).orElse(0);
        if (box <= 0) box = topo.scaleUp().gpus();
        if (box <= 0) box = plan.ranks();
        boolean hasNics = topo.scaleOut().map(so -> !so.nics().isEmpty()).orElse(false);
        if (plan.ranks() > box && !hasNics) {
            throw new CompileException(ErrorKind.PLAN, plan.pos(), "the plan has " + plan.ranks() + " ranks, but a box of "
                    + topo.name() + " holds " + box + " GPUs and the topology describes no NIC ports to reach other boxes");
        }
        return box;
    }

    /** One placement being computed; its fields are what {@link PlacementMetrics} reads. */
    static final class Run {
        final Plan plan;
        final Accesses acc;
        final LogicalGroups groups;
        final Topology topo;
        final Policy policy;
        final int k;
        final boolean direct;
        final int nCus, nStacks, boxSize;
        final long cb, pageBytes, window, stackBudget;
        final long[][] cuLeft, stackLeft, cuSlotsLeft;
        final int[] cuOfTb, domainOfTb, groupOfTb;
        final int[] given;
        final boolean repack;
        final PageAllocator pages;
        final boolean[] chunkPlaced;
        final int[] allPorts, nicPorts;
        final Map<Integer, int[]> cusNearStack = new HashMap<>();
        /** One array per distinct port set, so orders can be cached by identity. */
        final Map<Long, int[]> portSets = new HashMap<>();
        /** The same sets within the box on a switched topology, by NAR domain + 1: asked per chunk, without a boxed key. */
        int[][] portsByDomain = new int[0][];
        final Map<int[], int[]> cuOrders = new java.util.IdentityHashMap<>();
        final Map<int[], int[]> stackOrders = new java.util.IdentityHashMap<>();
        /** Voters of the page allocator, by number. */
        final List<Voter> voters = new ArrayList<>();
        final HopsMemo hops;
        /** Stacks nearest first from each CU, asked for once per CU rather than copied per threadblock. */
        final int[][] stacksNearCu;
        int cuSpills, cuOverflows, stackSpills, stackOverflows;
        /** Spread threadblocks over CUs by injection ({@link #takeSoonest}); the flits placed on each CU of each rank, and one flit's injection time. */
        final boolean spread;
        final double[][] cuFlits;
        final double injectionNs;

        Run(PlacementInput in, LogicalGroups groups, Policy policy, int granularity, int[] domains, boolean spread) {
            this.spread = spread;
            this.plan = in.plan();
            this.acc = in.accesses();
            this.groups = groups;
            this.topo = in.topology();
            this.policy = policy;
            this.direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
            this.k = direct || !policy.nar ? 1 : granularity;
            nCus = topo.cus().size();
            nStacks = topo.stacks().size();
            stacksNearCu = new int[nCus][];
            boxSize = boxSize(plan, topo);
            cb = in.chunkBytes();
            pageBytes = Math.max(1, topo.budgets().pageSize());
            window = Math.max(1, topo.budgets().outstandingPerCu().asLong());
            stackBudget = Math.max(1, topo.budgets().inFlightBytesPerStack().asLong());
            cuLeft = new long[plan.ranks()][nCus];
            stackLeft = new long[plan.ranks()][nStacks];
            for (long[] a : cuLeft) Arrays.fill(a, window);
            cuSlotsLeft = new long[plan.ranks()][nCus];
            for (long[] a : cuSlotsLeft) Arrays.fill(a, topo.budgets().threadblockSlots());
            cuFlits = new double[spread ? plan.ranks() : 0][];
            for (int r = 0; r < cuFlits.length; r++) cuFlits[r] = new double[nCus];
            injectionNs = REQUEST_BYTES / topo.cuInjectionGBs();
            for (long[] a : stackLeft) Arrays.fill(a, stackBudget);
            int n = acc.threadblocks().size();
            cuOfTb = new int[n];
            domainOfTb = new int[n];
            groupOfTb = new int[n];
            given = domains != null ? domains.clone() : Placer.domains(in, groups, policy, k);
            repack = in.repack();
            pages = new PageAllocator(acc.space(), cb, pageBytes, nStacks, layouts(), k);
            chunkPlaced = new boolean[acc.space().size()];
            allPorts = topo.scaleUpPorts().stream().mapToInt(p -> p.index()).toArray();
            nicPorts = topo.scaleOut().map(so -> so.nics().stream().mapToInt(Nic::port).toArray()).orElse(new int[0]);
            hops = new HopsMemo(topo);
        }

        /**
         * How each buffer's chunks lie in its pages. The collective's input and output are the
         * caller's: they keep their natural layout, unless the input allows repacking, when NUNA-aware
         * memory packs chunks smaller than a page into pages as the paper does ("we pack multiple
         * chunks into the first-chosen page", §4.2.2). Scratch buffers are nunac's: under the
         * balanced policy packed when chunks are smaller than a page, else aligned to pages; the
         * paper's NAP treats them as it treats the rest. Packing needs every step to move one chunk
         * (it permutes a buffer's chunks). Baseline memory keeps every buffer natural.
         */
        PageMap.Layout[] layouts() {
            List<ChunkSpace.Storage> sts = acc.space().storages();
            PageMap.Layout[] out = new PageMap.Layout[sts.size()];
            boolean packable = cb < pageBytes && singleChunkSteps(plan);
            for (int s = 0; s < out.length; s++) {
                boolean scratch = Buffer.kindOf(sts.get(s).buffer()) == BufferKind.SCRATCH;
                PageMap.Layout caller = repack && packable ? PageMap.Layout.PACKED : PageMap.Layout.NATURAL;
                if (!policy.napMemory) out[s] = PageMap.Layout.NATURAL;
                else if (!policy.balanced || !scratch) out[s] = caller;
                else out[s] = packable ? PageMap.Layout.PACKED : PageMap.Layout.ALIGNED;
            }
            return out;
        }

        Placement run() {
            for (LogicalGroup g : groups.groups()) for (int m : g.members()) groupOfTb[m] = g.id();
            if (!policy.napMemory) roundRobinPages();
            switch (policy.compute) {
                case DEFAULT -> defaultDispatch();
                case NEAR_DATA -> nearData();
                case NEAR_PORTS -> nearPorts();
            }
            if (policy.napMemory) napMemory();
            else if (k > 1) {
                int[] domainOf = new int[nStacks]; // per stack, asked of every page (millions at 1 GB)
                for (int st = 0; st < nStacks; st++) domainOf[st] = domainOfStack(st);
                pages.domainsFromStacks(st -> domainOf[st]);
            }
            if (policy.compute != Policy.Compute.NEAR_PORTS) {
                for (int t = 0; t < cuOfTb.length; t++) domainOfTb[t] = trafficDomain(acc.threadblocks().get(t));
            }
            PlacementStats stats = PlacementMetrics.of(this);
            return new Placement(policy, k, direct, cb, pageBytes, cuOfTb, domainOfTb, groupOfTb, pages.maps(), stats);
        }

        // ---- compute ----

        long demand(TbAccess t) {
            long bytes = t.moved() * cb;
            return Math.max(1, Math.min(window, (bytes + REQUEST_BYTES - 1) / REQUEST_BYTES));
        }

        /**
         * First CU in {@code order} with a free threadblock slot whose request budget fits; else the
         * one with most budget left (an overflow).
         */
        int take(int rank, int tb, int[] order, int share) {
            return order[takeAt(rank, tb, order, 0, share)];
        }

        /**
         * {@link #take} over {@code cus} read from position {@code start} round to it again, without
         * copying the rotated order; returns the chosen CU's position in {@code cus}.
         */
        int takeAt(int rank, int tb, int[] cus, int start, int share) {
            long need = demand(acc.threadblocks().get(tb));
            long[] left = cuLeft[rank], slots = cuSlotsLeft[rank];
            int n = cus.length;
            for (int i = 0, j = start; i < n; i++, j = j + 1 == n ? 0 : j + 1) {
                int cu = cus[j];
                if (left[cu] >= need && slots[cu] > 0) {
                    if (i >= share) cuSpills++;
                    left[cu] -= need;
                    slots[cu]--;
                    return j;
                }
            }
            int best = start;
            for (int i = 0, j = start; i < n; i++, j = j + 1 == n ? 0 : j + 1) if (left[cus[j]] > left[cus[best]]) best = j;
            cuOverflows++;
            left[cus[best]] -= need;
            slots[cus[best]]--;
            return best;
        }

        /**
         * A spread balanced candidate's CU: of the CUs in {@code order} with a slot and request budget left,
         * the one whose injection would pass the threadblock's flits soonest — its NoC latency to
         * the nearest of {@code ports}, plus the flits already placed on it and the threadblock's
         * own at one injection service time each. Threadblocks then spread over equally near CUs
         * instead of queueing at one CU's injection: the window alone let all seven of an 8-GPU
         * 100 kB all-gather's threadblocks onto one CU, where each first step took 1.37 us instead
         * of 1.21 spread. The paper's NAP keeps {@link #take}.
         */
        int takeSoonest(int rank, int tb, int[] order, int[] ports, int share) {
            long need = demand(acc.threadblocks().get(tb));
            double flits = Math.max(1, Math.ceil(acc.threadblocks().get(tb).moved() * (double) cb / REQUEST_BYTES));
            double[] near = hops.nearestNs(ports);
            long[] left = cuLeft[rank], slots = cuSlotsLeft[rank];
            double[] queued = cuFlits[rank];
            int best = -1;
            double soonest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < order.length; i++) {
                int cu = order[i];
                double lat = near[topo.cus().get(cu).router()];
                if (lat + flits * injectionNs >= soonest) break; // the order is by that latency: no later CU is sooner
                if (left[cu] < need || slots[cu] <= 0) continue;
                double t = lat + (queued[cu] + flits) * injectionNs;
                if (t < soonest) {
                    soonest = t;
                    best = i;
                }
            }
            if (best < 0) return take(rank, tb, order, share);
            int cu = order[best];
            if (best >= share) cuSpills++;
            left[cu] -= need;
            slots[cu]--;
            queued[cu] += flits;
            return cu;
        }

        /** A port set's fair share of {@code n} resources: placing beyond it is a spill. */
        int share(int n, int[] ports) {
            return (int) Math.ceil((double) n * ports.length / Math.max(1, kindCount(ports)));
        }

        void nearPorts() {
            for (LogicalGroup g : groups.groups()) {
                for (int m : g.members()) {
                    TbAccess t = acc.threadblocks().get(m);
                    int domain = given[m];
                    int[] ports = portsOf(t.rank(), t.peer(), domain);
                    int[] order = cuOrders.computeIfAbsent(ports, topo::cusByDistance);
                    cuOfTb[m] = spread ? takeSoonest(t.rank(), m, order, ports, share(nCus, ports))
                            : take(t.rank(), m, order, share(nCus, ports));
                    if (ports == nicPorts) domainOfTb[m] = -1;
                    else if (direct) domainOfTb[m] = t.peer() >= 0 ? topo.ports().get(ports[0]).plane() : -1;
                    else domainOfTb[m] = k > 1 ? domain : -1;
                }
            }
        }

        int kindCount(int[] ports) {
            return ports == nicPorts ? nicPorts.length : allPorts.length;
        }

        /** The ports a threadblock on {@code rank} uses to reach {@code peer} (or receives through). */
        int[] portsOf(int rank, int peer, int domain) {
            boolean cross = peer >= 0 && peer / boxSize != rank / boxSize;
            int g = direct ? Math.max(1, topo.scaleUp().gpus()) : 1;
            int d = cross || direct ? -1 : k > 1 ? domain + 1 : 0;
            if (d >= 0 && d < portsByDomain.length && portsByDomain[d] != null) return portsByDomain[d];
            long key = cross ? -1 : direct ? ((long) (rank % g) << 32 | (peer < 0 ? 0xffffffffL : peer % g))
                    : (1L << 62) + (k > 1 ? domain : -1);
            int[] ports = portSets.computeIfAbsent(key, x -> computePorts(rank, peer, domain));
            if (d >= 0) {
                if (d >= portsByDomain.length) portsByDomain = Arrays.copyOf(portsByDomain, d + 1);
                portsByDomain[d] = ports;
            }
            return ports;
        }

        private int[] computePorts(int rank, int peer, int domain) {
            if (peer >= 0 && peer / boxSize != rank / boxSize) return nicPorts;
            if (direct) {
                if (peer < 0) return allPorts;
                int g = topo.scaleUp().gpus();
                return topo.portsToPeer(rank % g, peer % g);
            }
            if (k > 1 && domain >= 0) return topo.narDomains(k).get(domain).ports();
            return allPorts;
        }

        void defaultDispatch() {
            Map<Integer, int[]> cusOfDie = new HashMap<>();
            for (ComputeUnit c : topo.cus()) cusOfDie.merge(c.die(), new int[] {c.index()}, Placer::concat);
            cusOfDie.replaceAll((die, cus) -> spread(cus));
            int[] all = spread(topo.cus().stream().mapToInt(ComputeUnit::index).toArray());
            int t = 0;
            for (int r = 0; r < plan.ranks(); r++) {
                Map<Integer, Integer> cursor = new HashMap<>();
                int ntb = plan.rank(r).threadblocks().size();
                for (int b = 0; b < ntb; b++, t++) {
                    int die = topo.dispatch().dieOfBlock(b);
                    int[] cus = die < 0 ? all : cusOfDie.getOrDefault(die, all);
                    int start = cursor.getOrDefault(die, 0);
                    // the die's CUs from the cursor on, read in place: a copy of the rotated order
                    // per threadblock was most of a large plan's dispatch (the CUs are distinct, so
                    // the chosen position is the CU's)
                    int pos = takeAt(r, t, cus, start, Integer.MAX_VALUE);
                    cuOfTb[t] = cus[pos];
                    cursor.put(die, (pos + 1) % cus.length);
                }
            }
        }

        void nearData() {
            int share = Math.max(1, nCus / Math.max(1, nStacks));
            int t = 0;
            List<Integer> fallback = new ArrayList<>();
            for (TbAccess a : acc.threadblocks()) {
                int home = homeStack(a);
                if (home < 0) {
                    fallback.add(t++);
                    continue;
                }
                cuOfTb[t] = take(a.rank(), t, cusNearStack(home), share);
                t++;
            }
            int[] all = topo.cus().stream().mapToInt(ComputeUnit::index).toArray();
            for (int f : fallback) cuOfTb[f] = take(acc.threadblocks().get(f).rank(), f, all, Integer.MAX_VALUE);
        }

        int homeStack(TbAccess a) {
            int[] votes = new int[nStacks];
            int best = -1;
            for (int ch : a.local()) {
                int s = pages.stackOf(ch);
                if (s < 0) continue;
                votes[s]++;
                if (best < 0 || votes[s] > votes[best] || (votes[s] == votes[best] && s < best)) best = s;
            }
            return best;
        }

        int[] cusNearStack(int stack) {
            return cusNearStack.computeIfAbsent(stack, s -> topo.cusByDistanceFromRouter(topo.stacks().get(s).router()));
        }

        // ---- memory ----

        void roundRobinPages() {
            pages.fillRest(plan.ranks(), false);
            for (int ch = 0; ch < chunkPlaced.length; ch++) {
                int st = pages.stackOf(ch);
                if (st >= 0) stackLeft[acc.space().rankOf(ch)][st] -= cb;
            }
        }

        void napMemory() {
            boolean spread = policy.balanced;
            if (spread) spreadSharedSources();
            for (LogicalGroup g : groups.groups()) {
                for (int m : g.members()) {
                    TbAccess t = acc.threadblocks().get(m);
                    int domain = given[m];
                    int[] own = portsOf(t.rank(), t.peer(), domain);
                    int cuRouter = topo.cus().get(cuOfTb[m]).router();
                    for (int ch : t.local()) {
                        if (chunkPlaced[ch]) continue;
                        int voter = voter(cuRouter, null, null);
                        placeChunk(ch, stacksNearCu(cuOfTb[m]), share(nStacks, own), k > 1 && !direct ? domain : -1, voter);
                    }
                    for (int ch : t.remote()) {
                        if (chunkPlaced[ch]) continue;
                        int q = acc.space().rankOf(ch);
                        int[] ports = portsOf(q, t.rank(), domain);
                        int voter = voter(cuRouter, portsOf(t.rank(), q, domain), ports);
                        placeChunk(ch, stacksNear(ports), share(nStacks, ports), k > 1 && !direct && ports != nicPorts ? domain : -1, voter);
                    }
                }
            }
            if (policy.balanced) pages.resolve(this::voteCost);
            else pages.firstComeFirstServed();
            // Pages no threadblock touches (e.g. an unused tail) are dealt round-robin.
            pages.fillRest(plan.ranks(), true);
        }

        /**
         * Balanced policy: a chunk that several threadblocks of its rank read and none writes is read
         * by all of them, from the stacks holding its pages, over the NoC links beside those stacks.
         * Its pages are dealt over the w stacks where the farthest reader is nearest (fewest hops
         * from the stack to the reader farthest from it; ties by hops summed over the readers), w
         * chosen to minimise that farthest reader's round trip plus the time one stack's share of all
         * the reads takes over one link: one stack is nearest, several share the bytes.
         */
        void spreadSharedSources() {
            boolean[] shared = acc.sharedReadOnly();
            Map<Integer, List<Integer>> readers = new java.util.TreeMap<>();
            for (int t = 0; t < acc.threadblocks().size(); t++) {
                for (int ch : acc.threadblocks().get(t).local()) if (shared[ch]) readers.computeIfAbsent(ch, x -> new ArrayList<>()).add(t);
            }
            double hopNs = topo.nocFigures().cyclesToNs(topo.nocFigures().hopCycles().value());
            double linkBw = topo.nocFigures().linkBandwidthGBs().value();
            for (Map.Entry<Integer, List<Integer>> e : readers.entrySet()) {
                int ch = e.getKey();
                List<Integer> rs = e.getValue();
                if (rs.size() < 2) continue;
                chunkPlaced[ch] = true;
                int rank = acc.space().rankOf(ch);
                int[] farthest = new int[nStacks];
                long[] sum = new long[nStacks];
                Integer[] order = new Integer[nStacks];
                for (int s = 0; s < nStacks; s++) {
                    order[s] = s;
                    int sr = topo.stacks().get(s).router();
                    for (int t : rs) {
                        int h = topo.hops(sr, topo.cus().get(cuOfTb[t]).router());
                        farthest[s] = Math.max(farthest[s], h);
                        sum[s] += h;
                    }
                }
                java.util.Arrays.sort(order, java.util.Comparator.<Integer>comparingInt(s -> farthest[s]).thenComparingLong(s -> sum[s])
                        .thenComparingInt(s -> s));
                int n = pages.pageCount(ch);
                int best = order[0];
                if (n <= 1) { // one page, or a packed chunk: the whole chunk where its farthest reader is nearest
                    stackLeft[rank][best] -= cb;
                    pages.vote(ch, best, -1, voter(topo.stacks().get(best).router(), null, null));
                    continue;
                }
                double reads = (double) rs.size() * cb;
                int width = 1;
                double bestCost = Double.POSITIVE_INFINITY;
                for (int w = 1; w <= Math.min(Math.min(4, nStacks), n); w++) {
                    double cost = 2 * farthest[order[w - 1]] * hopNs + reads / w / linkBw;
                    if (cost < bestCost - 1e-9) {
                        bestCost = cost;
                        width = w;
                    }
                }
                for (int j = 0; j < n; j++) {
                    int st = order[j % width];
                    stackLeft[rank][st] -= Math.min(cb, pageBytes);
                    pages.votePage(ch, j, st, -1, voter(topo.stacks().get(st).router(), null, null));
                }
            }
        }

        /**
         * A chunk's traffic, as the page allocator weighs it: from the router of the CU that moves it
         * (or reads it) to the ports it leaves by ({@code out}) and reaches its page's rank through
         * ({@code in}); both null for a local access.
         */
        record Voter(int cuRouter, int[] out, int[] in) {}

        /** Voters by content (port sets are the placer's shared arrays, so equal by identity): a chunk's vote names one. */
        final Map<Voter, Integer> voterIds = new HashMap<>();

        int voter(int cuRouter, int[] portsOut, int[] portsIn) {
            Voter v = new Voter(cuRouter, portsOut, portsIn);
            Integer id = voterIds.get(v);
            if (id != null) return id;
            voters.add(v);
            voterIds.put(v, voters.size() - 1);
            return voters.size() - 1;
        }

        /**
         * The hops a voter's traffic takes if its page sits on {@code stack} in {@code domain}: a local
         * access goes from its CU to the stack; a remote store from its CU to the ports and from the
         * ports on the peer to the stack — under NAR the page's domain picks those ports.
         */
        double voteCost(int voter, int stack, int domain) {
            Voter v = voters.get(voter);
            int sr = topo.stacks().get(stack).router();
            if (v.out() == null) return topo.hops(v.cuRouter(), sr);
            int[] out = v.out(), in = v.in();
            if (!direct && k > 1 && in != nicPorts) {
                out = in = portsOf(0, -1, domain);
            }
            return hops.mean(v.cuRouter(), out) + hops.mean(sr, in);
        }

        void placeChunk(int ch, int[] prefs, int share, int domain, int voter) {
            chunkPlaced[ch] = true;
            int r = acc.space().rankOf(ch);
            long[] left = stackLeft[r];
            int chosen = -1;
            for (int i = 0; i < prefs.length; i++) {
                if (left[prefs[i]] >= cb) {
                    chosen = prefs[i];
                    if (i >= share) stackSpills++;
                    break;
                }
            }
            if (chosen < 0) {
                chosen = prefs[0];
                for (int s : prefs) if (left[s] > left[chosen]) chosen = s;
                stackOverflows++;
            }
            left[chosen] -= cb;
            pages.vote(ch, chosen, domain, voter);
        }

        int[] stacksNearCu(int cu) {
            int[] s = stacksNearCu[cu];
            return s != null ? s : (stacksNearCu[cu] = topo.stacksByDistanceFromCu(cu));
        }

        int[] stacksNear(int[] ports) {
            return stackOrders.computeIfAbsent(ports, topo::stacksByDistanceToPorts);
        }

        /** Under NAR with baseline memory, a page's domain is the one nearest its stack. */
        int domainOfStack(int stack) {
            return topo.nearestDomainOfRouter(k, topo.stacks().get(stack).router());
        }

        /** The domain a threadblock's stores go through: that of its first remote chunk's page. */
        int trafficDomain(TbAccess t) {
            if (direct) {
                if (t.peer() < 0 || t.peer() / boxSize != t.rank() / boxSize) return -1;
                int g = topo.scaleUp().gpus();
                return topo.ports().get(topo.portToPeer(t.rank() % g, t.peer() % g)).plane();
            }
            if (k <= 1 || t.remote().length == 0) return -1;
            return pages.domainOf(t.remote()[0]);
        }
    }

    /**
     * The order in which the baseline scheduler visits a die's free CUs: a stride through the die
     * (step near n/φ, coprime with n), so that successive blocks land spread over the die rather
     * than packed into one corner of it.
     */
    static int[] spread(int[] cus) {
        int n = cus.length;
        if (n <= 2) return cus;
        int step = (int) Math.round(n * 0.618);
        while (step > 1 && gcd(step, n) != 1) step--;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = cus[(int) ((long) i * step % n)];
        return out;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Packing permutes chunks within a buffer, which a step naming several contiguous chunks forbids. */
    static boolean singleChunkSteps(Plan plan) {
        for (var rp : plan.rankPlans()) {
            for (var tb : rp.threadblocks()) {
                for (var st : tb.steps()) if (st.count() > 1) return false;
            }
        }
        return true;
    }

    static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
