package dev.nunac.passes.check;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.BufferLayout;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Protocol;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.ir.Transfers;
import dev.nunac.ir.Transfers.Endpoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a plan on chunk identities instead of data, like MSCCLang's Check(): every threadblock
 * executes its steps in order; a step waits for its dependencies, a receive for its matching
 * send, a wait for its signal; sends are buffered. Under the LL and LL128 protocols data carries
 * its own flag and a reader spins on it, so there a step also waits until the chunks it reads
 * have been written (one-sided packet plans synchronise only this way). Reports a deadlock
 * (steps that can never run) and leaves the final buffer contents for the postcondition.
 */
final class SymbolicExecution {
    private final Plan plan;
    private final Transfers transfers;
    /** Chunk ids after in-place aliasing, and the value each holds (null: nothing yet). */
    private final ChunkSpace space;
    private final ChunkValue[] memory;
    private final int[][] pc;
    private final boolean[] done;
    private final ChunkValue[][] inflight;
    private final int inputChunks;
    /** LL/LL128: a step's source must hold data before the step runs. */
    private final boolean flaggedData;
    /**
     * Threadblocks to run, first in first out: a ring of (rank, threadblock) pairs, as large as the
     * plan's threadblocks, since each is queued at most once at a time ({@link #queued}).
     */
    private int[] workRank, workTb;
    private int workHead, workSize;
    private boolean[][] queued;
    /** Empty chunk id → threadblocks spinning on it. */
    private final Map<Integer, List<int[]>> slotWaiters = new HashMap<>();
    /** Output chunks found wrong by the postcondition. */
    int wrongChunks;

    SymbolicExecution(Plan plan, Transfers transfers) {
        this.plan = plan;
        this.transfers = transfers;
        int n = transfers.stepCount();
        pc = new int[plan.ranks()][];
        for (RankPlan rp : plan.rankPlans()) pc[rp.rank()] = new int[rp.threadblocks().size()];
        done = new boolean[n];
        inflight = new ChunkValue[n][];
        int maxIn = 0;
        for (int r = 0; r < plan.ranks(); r++) maxIn = Math.max(maxIn, BufferLayout.capacity(plan, r, "input"));
        inputChunks = Math.max(1, maxIn);
        flaggedData = plan.protocol() == Protocol.LL || plan.protocol() == Protocol.LL128;
        space = new ChunkSpace(plan);
        memory = new ChunkValue[space.size()];
        for (int r = 0; r < plan.ranks(); r++) {
            int cap = BufferLayout.capacity(plan, r, "input");
            for (int i = 0; i < cap; i++) memory[space.id(r, "input", i)] = ChunkValue.input(id(r, i));
        }
    }

    int id(int rank, int index) {
        return rank * inputChunks + index;
    }

    int inputChunks() {
        return inputChunks;
    }

    /** Runs to completion or deadlock; reports the deadlock. Returns true when every step ran. */
    boolean run(Diagnostics diags) {
        // Who may become runnable when a step completes: its dependants and its transfer partner.
        Waiters waiters = new Waiters(done.length);
        // Indexed loops: C1 would make an iterator per threadblock and per step.
        for (int pass = 0; pass < 2; pass++) {
            for (RankPlan rp : plan.rankPlans()) {
                for (Threadblock t : rp.threadblocks()) {
                    List<Step> steps = t.steps();
                    for (int i = 0; i < steps.size(); i++) {
                        List<Dep> deps = steps.get(i).deps();
                        for (int k = 0; k < deps.size(); k++) {
                            waiters.add(pass, transfers.stepId(rp.rank(), deps.get(k).tb(), deps.get(k).step()), rp.rank(), t.id());
                        }
                    }
                }
            }
            // After its dependants, a sending step (or signal) wakes its one partner: every
            // receiving step (or wait) is listed under its sender.
            for (RankPlan rp : plan.rankPlans()) {
                for (Threadblock t : rp.threadblocks()) {
                    int first = transfers.stepId(rp.rank(), t.id(), 0);
                    for (int id = first; id < first + t.steps().size(); id++) {
                        int from = transfers.senderId(id);
                        if (from >= 0) waiters.add(pass, from, rp.rank(), t.id());
                    }
                }
            }
            if (pass == 0) waiters.allocate();
        }
        queued = new boolean[plan.ranks()][];
        workRank = new int[Math.max(1, plan.threadblockCount())];
        workTb = new int[workRank.length];
        for (RankPlan rp : plan.rankPlans()) {
            queued[rp.rank()] = new boolean[rp.threadblocks().size()];
            for (Threadblock t : rp.threadblocks()) {
                push(rp.rank(), t.id());
                queued[rp.rank()][t.id()] = true;
            }
        }
        while (workSize > 0) {
            int r = workRank[workHead], t = workTb[workHead];
            workHead = (workHead + 1) % workRank.length;
            workSize--;
            queued[r][t] = false;
            Threadblock tb = plan.rank(r).tb(t);
            while (pc[r][t] < tb.steps().size()) {
                Step s = tb.steps().get(pc[r][t]);
                if (!ready(r, tb, s)) break;
                ChunkRef missing = unwritten(r, s);
                if (missing != null) {
                    slotWaiters.computeIfAbsent(slot(missing), k -> new ArrayList<>()).add(new int[] {r, t});
                    break;
                }
                execute(r, tb, s);
                int g = transfers.stepId(r, t, s.index());
                done[g] = true;
                pc[r][t]++;
                for (int i = waiters.start[g]; i < waiters.start[g + 1]; i++) wake(waiters.rank[i], waiters.tb[i]);
            }
        }
        List<String> stuck = new ArrayList<>();
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock t : rp.threadblocks()) {
                if (pc[rp.rank()][t.id()] < t.steps().size()) {
                    Step s = t.steps().get(pc[rp.rank()][t.id()]);
                    stuck.add("rank " + rp.rank() + " threadblock " + t.id() + " step " + s.index() + " ("
                            + s.op().mnemonic() + ") " + blockedOn(rp.rank(), t, s));
                }
            }
        }
        if (stuck.isEmpty()) return true;
        StringBuilder msg = new StringBuilder("deadlock: " + stuck.size() + " threadblock(s) can never finish; ");
        for (int i = 0; i < Math.min(3, stuck.size()); i++) msg.append(i == 0 ? "" : "; ").append(stuck.get(i));
        if (stuck.size() > 3) msg.append("; ...");
        diags.error(plan.pos(), msg.toString());
        return false;
    }

    private void wake(int rank, int tb) {
        if (!queued[rank][tb]) {
            queued[rank][tb] = true;
            push(rank, tb);
        }
    }

    private void push(int rank, int tb) {
        int at = (workHead + workSize++) % workRank.length;
        workRank[at] = rank;
        workTb[at] = tb;
    }

    /** Who waits on each step, as compressed rows: waiters of step g at [start[g], start[g+1]). */
    private static final class Waiters {
        final int[] start;
        int[] rank = new int[0], tb = new int[0];
        private int[] fill;

        Waiters(int steps) {
            start = new int[steps + 1];
        }

        void add(int pass, int g, int r, int t) {
            if (pass == 0) {
                start[g + 1]++;
            } else {
                int i = start[g] + fill[g]++;
                rank[i] = r;
                tb[i] = t;
            }
        }

        void allocate() {
            for (int g = 0; g + 1 < start.length; g++) start[g + 1] += start[g];
            rank = new int[start[start.length - 1]];
            tb = new int[rank.length];
            fill = new int[start.length];
        }
    }

    private int slot(ChunkRef c) {
        return space.id(c.rank(), c.buffer(), c.index());
    }

    /**
     * Under flagged data, the first chunk the step reads that holds nothing yet (as a single
     * chunk on its rank); null when the step may read now.
     */
    private ChunkRef unwritten(int r, Step s) {
        if (!flaggedData || !s.op().readsSrc || s.src() == null) return null;
        int rank = s.op() == OpKind.GET || s.op() == OpKind.GET_REDUCE ? s.peer() : r;
        for (int i = 0; i < s.src().count(); i++) {
            ChunkRef c = new ChunkRef(rank, s.src().buffer(), s.src().index() + i, 1);
            if (memory[slot(c)] == null) return c;
        }
        return null;
    }

    private String blockedOn(int r, Threadblock tb, Step s) {
        for (Dep d : s.deps()) {
            if (!done[transfers.stepId(r, d.tb(), d.step())]) return "waits for threadblock " + d.tb() + " step " + d.step();
        }
        Endpoint partner = transfers.senderOf(new Endpoint(r, tb.id(), s.index()));
        if (s.op().receives) {
            return partner == null ? "receives from rank " + tb.recvPeer() + " on channel " + tb.channel() + ", which never sends it"
                    : "waits for rank " + partner.rank() + " threadblock " + partner.tb() + " step " + partner.step() + " to send";
        }
        if (s.op() == OpKind.WAIT) {
            return partner == null ? "waits for a signal from rank " + s.peer() + " that is never sent"
                    : "waits for the signal of rank " + partner.rank() + " threadblock " + partner.tb();
        }
        ChunkRef missing = unwritten(r, s);
        if (missing != null) {
            return "waits for " + missing + " to be written, which never happens (" + plan.protocol().id()
                    + " data carries its own flag: a reader waits for it)";
        }
        return "is blocked";
    }

    private boolean ready(int r, Threadblock tb, Step s) {
        List<Dep> deps = s.deps();
        for (int k = 0; k < deps.size(); k++) if (!done[transfers.stepId(r, deps.get(k).tb(), deps.get(k).step())]) return false;
        if (s.op().receives || s.op() == OpKind.WAIT) {
            int p = transfers.senderId(transfers.stepId(r, tb.id(), s.index()));
            return p >= 0 && done[p];
        }
        return true;
    }

    private void execute(int r, Threadblock tb, Step s) {
        int self = transfers.stepId(r, tb.id(), s.index());
        ChunkValue[] got = null;
        if (s.op().receives) got = inflight[transfers.senderId(self)];
        switch (s.op()) {
            case SEND -> inflight[self] = read(r, s.src());
            case RECV -> write(r, s.dst(), got);
            case RECV_COPY_SEND -> {
                write(r, s.dst(), got);
                inflight[self] = got;
            }
            case RECV_REDUCE_SEND -> inflight[self] = combine(got, read(r, s.src()));
            case RECV_REDUCE_COPY -> write(r, s.dst(), combine(got, read(r, s.src())));
            case RECV_REDUCE_COPY_SEND -> {
                ChunkValue[] v = combine(got, read(r, s.src()));
                write(r, s.dst(), v);
                inflight[self] = v;
            }
            case COPY -> write(r, s.dst(), read(r, s.src()));
            case REDUCE, RESIDUAL_ADD -> write(r, s.dst(), combine(read(r, s.dst()), read(r, s.src())));
            case PUT -> write(s.peer(), s.dst(), read(r, s.src()));
            case GET -> write(r, s.dst(), read(s.peer(), s.src()));
            case GET_REDUCE -> write(r, s.dst(), combine(read(r, s.dst()), read(s.peer(), s.src())));
            case NOP, SIGNAL, WAIT -> { }
        }
    }

    private ChunkValue[] read(int rank, ChunkRef c) {
        ChunkValue[] v = new ChunkValue[c.count()];
        for (int i = 0; i < c.count(); i++) v[i] = memory[space.id(rank, c.buffer(), c.index() + i)];
        return v;
    }

    private void write(int rank, ChunkRef c, ChunkValue[] v) {
        for (int i = 0; i < c.count(); i++) {
            int slot = space.id(rank, c.buffer(), c.index() + i);
            ChunkValue x = v == null || i >= v.length ? ChunkValue.UNDEFINED : v[i];
            memory[slot] = x;
            if (x != null && !slotWaiters.isEmpty()) {
                List<int[]> spinning = slotWaiters.remove(slot);
                if (spinning != null) for (int[] w : spinning) wake(w[0], w[1]);
            }
        }
    }

    private static ChunkValue[] combine(ChunkValue[] a, ChunkValue[] b) {
        int n = Math.max(a == null ? 0 : a.length, b.length);
        ChunkValue[] out = new ChunkValue[n];
        for (int i = 0; i < n; i++) {
            out[i] = ChunkValue.reduce(a == null || i >= a.length ? null : a[i], i < b.length ? b[i] : null);
        }
        return out;
    }

    ChunkValue valueAt(int rank, String buffer, int index) {
        try {
            return memory[space.id(rank, buffer, index)];
        } catch (IllegalArgumentException e) {
            return null; // the plan has no such chunk: the postcondition reports "nothing"
        }
    }
}
