package dev.nunac.passes.access;

import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.ir.Transfers;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Stage;
import dev.nunac.passes.check.CheckPass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * For every threadblock, the chunks it reads and writes, local and remote: the paper's workload
 * W = {(gpu, tb, C_tb)}. A send (or put) writes the peer's destination chunk — for a send, the
 * chunk its matching receive stores — and the receive waits on that same chunk, so sender and
 * receiver share it. Also found: the plan's shared read-only chunks, which two or more
 * threadblocks read and none writes (an all-gather's own input, read by every peer's sender):
 * placement need not keep their readers together to keep such a chunk local to them.
 */
public final class AccessAnalysis extends BasePass {
    public AccessAnalysis() {
        super("access-analysis", Stage.ACCESS_ANALYSED, java.util.List.of(), Stage.CHECKED);
    }

    @Override
    public void run(Compilation c) {
        Transfers t = c.find(CheckPass.TRANSFERS).orElseGet(() -> Transfers.of(c.plan()));
        c.put(Accesses.KEY, analyse(c.plan(), t));
    }

    public static Accesses analyse(Plan plan) {
        return analyse(plan, Transfers.of(plan));
    }

    /** As {@link #analyse(Plan)}, with the plan's pairing already computed (the checker's). */
    public static Accesses analyse(Plan plan, Transfers transfers) {
        ChunkSpace space = new ChunkSpace(plan);
        List<TbAccess> out = new ArrayList<>(plan.threadblockCount());
        IntBag local = new IntBag(), remote = new IntBag(), moving = new IntBag();
        // Per chunk: the last threadblock (1-based number) that read it, how many distinct ones did, and whether any wrote it.
        int[] lastReader = new int[space.size()], readers = new int[space.size()];
        boolean[] written = new boolean[space.size()];
        Landings landings = new Landings(plan, space, transfers);
        int tbNumber = 0;
        for (RankPlan rp : plan.rankPlans()) {
            int r = rp.rank();
            for (Threadblock tb : rp.threadblocks()) {
                tbNumber++;
                local.clear();
                remote.clear();
                moving.clear();
                long moved = 0;
                int onePeer = -1;
                List<Step> steps = tb.steps();
                for (int k = 0; k < steps.size(); k++) { // indexed: C1 would make an iterator per threadblock
                    Step s = steps.get(k);
                    if (s.op() == OpKind.NOP || s.op() == OpKind.SIGNAL || s.op() == OpKind.WAIT) {
                        if (onePeer < 0 && s.peer() >= 0) onePeer = s.peer();
                        continue;
                    }
                    moved += s.count();
                    if (s.op().readsSrc && s.src() != null) {
                        int rank = s.op() == OpKind.GET || s.op() == OpKind.GET_REDUCE ? s.peer() : r;
                        for (int i = 0; i < s.src().count(); i++) {
                            int id = space.id(rank, s.src().buffer(), s.src().index() + i);
                            if (lastReader[id] != tbNumber) {
                                lastReader[id] = tbNumber;
                                readers[id]++;
                            }
                        }
                    }
                    if (s.dst() != null && (s.op().writesDst || s.op().receives)) mark(space, s.op() == OpKind.PUT ? s.peer() : r, s.dst(), written);
                    add(space, r, s.src(), local, remote);
                    add(space, r, s.dst(), local, remote);
                    add(space, r, s.src(), moving, moving);
                    if (s.op() != OpKind.RECV) add(space, r, s.dst(), moving, moving);
                    if (s.op().oneSided() && onePeer < 0) onePeer = s.peer();
                    if (s.op().sends) {
                        int recvId = transfers.receiverId(transfers.stepId(r, tb.id(), s.index()));
                        // rrs forwards without storing: its data lands where the next hop stores it
                        if (recvId >= 0 && landings.count[recvId] > 0) {
                            int n = landings.count[recvId], first = landings.first[recvId];
                            IntBag bag = landings.rank[recvId] == r ? local : remote;
                            for (int i = 0; i < n; i++) {
                                bag.add(first + i);
                                moving.add(first + i);
                                written[landings.stored[recvId] + i] = true;
                            }
                        }
                    }
                }
                int peer = tb.sendPeer() >= 0 ? tb.sendPeer() : onePeer >= 0 ? onePeer : tb.recvPeer();
                int[] l = local.sortedUnique(), rm = remote.sortedUnique();
                int[] all = rm.length == 0 ? l : l.length == 0 ? rm : merge(l, rm);
                int[] mv = moving.sortedUnique();
                // The sets are read only and kept for the whole compile, one entry per threadblock:
                // equal ones share an array (a receiver's chunks are its local ones, a sender's moves all it touches).
                if (Arrays.equals(mv, all)) mv = all;
                out.add(new TbAccess(r, tb.id(), all, l, rm, moved, peer, mv));
            }
        }
        boolean[] shared = new boolean[space.size()];
        for (int id = 0; id < shared.length; id++) shared[id] = readers[id] >= 2 && !written[id];
        return new Accesses(space, List.copyOf(out), shared);
    }

    /**
     * Where each receiving step stores its data, by step number, found in one pass in plan order:
     * its sender reads it from these arrays, instead of following the plan's objects to a step
     * of another rank, which at a million threadblocks is a cache miss at every level.
     */
    private static final class Landings {
        /** The destination's rank, its first chunk id and count (0: none), and its first id on the receiving rank. */
        final int[] rank, first, count, stored;

        Landings(Plan plan, ChunkSpace space, Transfers transfers) {
            int n = transfers.stepCount();
            rank = new int[n];
            first = new int[n];
            count = new int[n];
            stored = new int[n];
            for (RankPlan rp : plan.rankPlans()) {
                for (Threadblock tb : rp.threadblocks()) {
                    List<Step> steps = tb.steps();
                    for (int k = 0; k < steps.size(); k++) {
                        Step s = steps.get(k);
                        ChunkRef d = s.dst();
                        if (!s.op().receives || d == null) continue;
                        int id = transfers.stepId(rp.rank(), tb.id(), s.index());
                        rank[id] = d.rank();
                        first[id] = space.id(d.rank(), d.buffer(), d.index());
                        stored[id] = space.id(rp.rank(), d.buffer(), d.index());
                        for (int i = 1; i < d.count(); i++) { // ids run on within a buffer; checked as before
                            space.id(d.rank(), d.buffer(), d.index() + i);
                            space.id(rp.rank(), d.buffer(), d.index() + i);
                        }
                        count[id] = d.count();
                    }
                }
            }
        }
    }

    private static void mark(ChunkSpace space, int rank, ChunkRef c, boolean[] written) {
        for (int i = 0; i < c.count(); i++) written[space.id(rank, c.buffer(), c.index() + i)] = true;
    }

    /** Adds the chunks of {@code c} to the local or remote set of a threadblock on rank {@code self}. */
    private static void add(ChunkSpace space, int self, ChunkRef c, IntBag local, IntBag remote) {
        if (c == null) return;
        IntBag bag = c.rank() == self ? local : remote;
        for (int i = 0; i < c.count(); i++) bag.add(space.id(c.rank(), c.buffer(), c.index() + i));
    }

    private static int[] merge(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        Arrays.sort(out);
        return out;
    }

    /** A growable int list; avoids boxing in the per-step loop. */
    static final class IntBag {
        private static final int[] NONE = new int[0];
        private int[] a = new int[16];
        private int n;

        void add(int v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = v;
        }

        void clear() {
            n = 0;
        }

        int[] sortedUnique() {
            if (n == 0) return NONE;
            int[] s = Arrays.copyOf(a, n);
            Arrays.sort(s);
            int k = 0;
            for (int i = 0; i < s.length; i++) if (i == 0 || s[i] != s[i - 1]) s[k++] = s[i];
            return k == s.length ? s : Arrays.copyOf(s, k);
        }
    }
}
