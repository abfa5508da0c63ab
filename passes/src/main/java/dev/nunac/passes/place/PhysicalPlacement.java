package dev.nunac.passes.place;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Stage;
import dev.nunac.passes.access.Accesses;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.alloc.LogicalGroup;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.nar.NarChoice;
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
 * Physical placement (paper §4.2.2, Algorithm 1) and the baselines of §5.3 from one code path.
 *
 * <p>NUNA-aware compute: logical groups in order go round-robin to NAR domains (group i to
 * domain i mod k); on direct topologies a threadblock's ports are the ones that reach its peer,
 * and a peer in another box is reached through the GPU's NIC ports (the GPUDirect RDMA path).
 * Each threadblock takes the first CU, in order of distance to those ports, whose remaining
 * outstanding-request budget fits its demand (its bytes in 256 B requests, capped by the CU's
 * window). NUNA-aware memory: walking the groups again, each chunk not yet placed goes to the
 * nearest stack with in-flight budget left — nearest its threadblock's CU for a local chunk,
 * nearest the receiving ports on the peer for a remote one — and fixes the stack of every page
 * it touches first (first come, first served; sub-page chunks share pages).
 *
 * <p>Baselines: default compute follows the hardware's dispatch rule (block b to die b mod n,
 * the free CUs of a die in turn, visited in a stride spread over the die); near-data compute takes the CU nearest the stack holding most
 * of the threadblock's local pages; baseline memory deals pages round-robin over the stacks.
 */
public final class PhysicalPlacement extends BasePass {
    /** Bytes per memory request: the budget unit of a CU's outstanding-request window. */
    public static final int REQUEST_BYTES = 256;

    public PhysicalPlacement() {
        super("physical-placement", Stage.PLACED, Stage.NAR_SELECTED);
    }

    @Override
    public void run(Compilation c) {
        NarChoice nar = c.get(NarChoice.KEY);
        // NAR auto already placed its winner: the same inputs give the same placement, so take it.
        Placement chosen = c.find(dev.nunac.passes.nar.NarSelection.CHOSEN_PLACEMENT)
                .filter(p -> p.granularity() == nar.granularity()).orElse(null);
        c.put(Placement.KEY, chosen != null ? chosen : place(c.plan(), c.get(Accesses.KEY), c.get(LogicalGroups.KEY), nar,
                c.get(TopologyInput.KEY), c.get(PlacementOptions.KEY)));
    }

    public static Placement place(Plan plan, Accesses acc, LogicalGroups groups, NarChoice nar, Topology topo,
                                  PlacementOptions opt) {
        return new Placer(plan, acc, groups, nar, topo, opt).run();
    }

    /** The bytes of one chunk: the collective size over the chunks of the largest input or output buffer of any rank. */
    public static long chunkBytes(Accesses acc, long sizeBytes) {
        int max = 1;
        for (ChunkSpace.Storage s : acc.space().storages()) {
            if (s.buffer().equals("input") || s.buffer().equals("output")) max = Math.max(max, s.chunks());
        }
        return Math.max(1, sizeBytes / max);
    }

    static final class Placer {
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
        final List<ChunkSpace.Storage> storages;
        final PageAllocator pages;
        final boolean[] chunkPlaced;
        final int[] allPorts, nicPorts;
        final Map<Integer, int[]> cusNearStack = new HashMap<>();
        /** One array per distinct port set, so orders can be cached by identity. */
        final Map<Long, int[]> portSets = new HashMap<>();
        final Map<int[], int[]> cuOrders = new java.util.IdentityHashMap<>();
        final Map<int[], int[]> stackOrders = new java.util.IdentityHashMap<>();
        int cuSpills, cuOverflows, stackSpills, stackOverflows;

        Placer(Plan plan, Accesses acc, LogicalGroups groups, NarChoice nar, Topology topo, PlacementOptions opt) {
            this.plan = plan;
            this.acc = acc;
            this.groups = groups;
            this.topo = topo;
            this.policy = opt.policy();
            this.k = nar.granularity();
            this.direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
            nCus = topo.cus().size();
            nStacks = topo.stacks().size();
            boxSize = boxSize(plan, topo);
            cb = chunkBytes(acc, opt.sizeBytes());
            pageBytes = Math.max(1, topo.budgets().pageSize());
            window = Math.max(1, topo.budgets().outstandingPerCu().asLong());
            stackBudget = Math.max(1, topo.budgets().inFlightBytesPerStack().asLong());
            cuLeft = new long[plan.ranks()][nCus];
            stackLeft = new long[plan.ranks()][nStacks];
            for (long[] a : cuLeft) Arrays.fill(a, window);
            cuSlotsLeft = new long[plan.ranks()][nCus];
            for (long[] a : cuSlotsLeft) Arrays.fill(a, topo.budgets().threadblockSlots());
            for (long[] a : stackLeft) Arrays.fill(a, stackBudget);
            int n = acc.threadblocks().size();
            cuOfTb = new int[n];
            domainOfTb = new int[n];
            groupOfTb = new int[n];
            storages = acc.space().storages();
            boolean packed = policy.napMemory && cb < pageBytes && singleChunkSteps(plan);
            pages = new PageAllocator(acc.space(), cb, pageBytes, nStacks, packed, k);
            chunkPlaced = new boolean[acc.space().size()];
            allPorts = topo.scaleUpPorts().stream().mapToInt(p -> p.index()).toArray();
            nicPorts = topo.scaleOut().map(so -> so.nics().stream().mapToInt(Nic::port).toArray()).orElse(new int[0]);
        }

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

        Placement run() {
            for (LogicalGroup g : groups.groups()) for (int m : g.members()) groupOfTb[m] = g.id();
            if (!policy.napMemory) roundRobinPages();
            switch (policy.compute) {
                case DEFAULT -> defaultDispatch();
                case NEAR_DATA -> nearData();
                case NEAR_PORTS -> nearPorts();
            }
            if (policy.napMemory) napMemory();
            else if (k > 1) pages.domainsFromStacks(this::domainOfStack);
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
            long need = demand(acc.threadblocks().get(tb));
            long[] left = cuLeft[rank], slots = cuSlotsLeft[rank];
            for (int i = 0; i < order.length; i++) {
                int cu = order[i];
                if (left[cu] >= need && slots[cu] > 0) {
                    if (i >= share) cuSpills++;
                    left[cu] -= need;
                    slots[cu]--;
                    return cu;
                }
            }
            int best = order[0];
            for (int cu : order) if (left[cu] > left[best]) best = cu;
            cuOverflows++;
            left[best] -= need;
            slots[best]--;
            return best;
        }

        /** Group i (in the sorted order) goes to NAR domain i mod k, round-robin. */
        int domainOfGroup(int i) {
            return k > 1 ? i % k : 0;
        }

        /** A port set's fair share of {@code n} resources: placing beyond it is a spill. */
        int share(int n, int[] ports) {
            return (int) Math.ceil((double) n * ports.length / Math.max(1, kindCount(ports)));
        }

        void nearPorts() {
            for (int gi = 0; gi < groups.groups().size(); gi++) {
                int domain = domainOfGroup(gi);
                for (int m : groups.groups().get(gi).members()) {
                    TbAccess t = acc.threadblocks().get(m);
                    int[] ports = portsOf(t.rank(), t.peer(), domain);
                    int[] order = cuOrders.computeIfAbsent(ports, topo::cusByDistance);
                    int share = share(nCus, ports);
                    cuOfTb[m] = take(t.rank(), m, order, share);
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
            long key = cross ? -1 : direct ? ((long) (rank % g) << 32 | (peer < 0 ? 0xffffffffL : peer % g)) : (1L << 62) + domain;
            return portSets.computeIfAbsent(key, x -> computePorts(rank, peer, domain));
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
            for (ComputeUnit c : topo.cus()) cusOfDie.merge(c.die(), new int[] {c.index()}, PhysicalPlacement::concat);
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
                    int[] order = new int[cus.length];
                    for (int i = 0; i < cus.length; i++) order[i] = cus[(start + i) % cus.length];
                    int cu = take(r, t, order, Integer.MAX_VALUE);
                    cuOfTb[t] = cu;
                    int pos = 0;
                    while (cus[pos] != cu) pos++;
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
                int s = stackOfChunk(ch);
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
                int st = stackOfChunk(ch);
                if (st >= 0) stackLeft[acc.space().rankOf(ch)][st] -= cb;
            }
        }

        void napMemory() {
            for (int gi = 0; gi < groups.groups().size(); gi++) {
                int domain = domainOfGroup(gi);
                for (int m : groups.groups().get(gi).members()) {
                    TbAccess t = acc.threadblocks().get(m);
                    int[] own = portsOf(t.rank(), t.peer(), domain);
                    for (int ch : t.local()) {
                        if (!chunkPlaced[ch]) {
                            placeChunk(ch, topo.stacksByDistanceFromCu(cuOfTb[m]), share(nStacks, own), k > 1 && !direct ? domain : -1);
                        }
                    }
                    for (int ch : t.remote()) {
                        if (chunkPlaced[ch]) continue;
                        int q = acc.space().rankOf(ch);
                        int[] ports = portsOf(q, t.rank(), domain);
                        placeChunk(ch, stacksNear(ports), share(nStacks, ports), k > 1 && !direct && ports != nicPorts ? domain : -1);
                    }
                }
            }
            // Pages no threadblock touches (e.g. an unused tail) are dealt round-robin.
            pages.fillRest(plan.ranks(), true);
        }

        void placeChunk(int ch, int[] prefs, int share, int domain) {
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
            pages.put(ch, chosen, domain);
        }

        int[] stacksNear(int[] ports) {
            return stackOrders.computeIfAbsent(ports, topo::stacksByDistanceToPorts);
        }

        /** The stack of a chunk's first page, or -1 while unplaced. */
        int stackOfChunk(int ch) {
            return pages.stackOf(ch);
        }

        int pageDomainOfChunk(int ch) {
            return pages.domainOf(ch);
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
            return pageDomainOfChunk(t.remote()[0]);
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
