package dev.nunac.frontend.dsl;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.ir.BufferLayout;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lowers DSL operations to threadblocks and steps, and infers the dependency edges between
 * threadblocks of a rank.
 *
 * <p>Assignment follows MSCCLang's rule: a threadblock has at most one send peer and one recv
 * peer, on one channel, and on each rank at most one threadblock sends to (receives from) a
 * given peer on a given channel, so that send/recv pairing is unambiguous. Hinted operations
 * ({@code sendtb}, {@code recvtb}, {@code tb}) go to the named threadblock; others go to the
 * threadblock that already talks to the same peer on the same channel, else to the first
 * unhinted threadblock on that channel with a free slot, else to a new one. Final ids: hinted
 * threadblocks in hint order, then the others in creation order; so the result depends only on
 * the program.
 *
 * <p>Dependencies: walking the steps of a rank in program order, a step waits for the last
 * writer of every slot it reads or writes and for the readers of every slot it overwrites,
 * when those ran on another threadblock (read-after-write, write-after-write, write-after-read),
 * keeping only the latest step per threadblock. In-place aliases are resolved first.
 */
final class ThreadblockAssignment {
    private static final class TbB {
        final int hint;
        final int channel;
        final SourcePos pos;
        int sendPeer = -1;
        int recvPeer = -1;
        int id;
        /** Most threadblocks of a large plan hold a step or two. */
        final List<StepB> steps = new ArrayList<>(2);

        TbB(int hint, int channel, SourcePos pos) {
            this.hint = hint;
            this.channel = channel;
            this.pos = pos;
        }
    }

    private static final class StepB {
        final OpKind op;
        final ChunkRef src;
        final ChunkRef dst;
        final int peer;
        final SourcePos pos;
        final TbB tb;
        final int index;
        /** The steps this one waits for; null until it has one (most steps of a large plan have none). */
        List<StepB> depSteps;
        boolean depended;

        StepB(OpKind op, ChunkRef src, ChunkRef dst, int peer, SourcePos pos, TbB tb) {
            this.op = op;
            this.src = src;
            this.dst = dst;
            this.peer = peer;
            this.pos = pos;
            this.tb = tb;
            this.index = tb.steps.size();
        }
    }

    private static final class RankB {
        /** By hint (null: none yet), so that a scan lists them in hint order; grown to the largest hint. */
        TbB[] hinted = new TbB[8];
        final List<TbB> auto = new ArrayList<>();
        /** Unhinted threadblocks per channel, with cursors before which every send (recv) slot is taken. */
        final Map<Integer, ChannelTbs> autoByChannel = new HashMap<>();
        /** The threadblock that sends to (receives from) a peer on a channel, by {@link #peerChannel}. */
        final TbMap sender = new TbMap();
        final TbMap receiver = new TbMap();
        final List<StepB> programOrder = new ArrayList<>();
        int count;
    }

    private enum Role { SEND, RECV, LOCAL }

    /** (peer, channel) as one key: peers are ranks (non-negative ints), channels below 1,024. */
    private static long peerChannel(int peer, int channel) {
        return (long) peer << 10 | channel;
    }

    /**
     * Threadblocks by a non-negative key, open addressing: looked up once or twice per
     * operation, where a hash map of records made a key object and a box per look-up.
     */
    private static final class TbMap {
        private long[] keys = emptyKeys(16);
        private TbB[] values = new TbB[16];
        private int size;

        private static long[] emptyKeys(int n) {
            long[] k = new long[n];
            java.util.Arrays.fill(k, -1);
            return k;
        }

        private int slot(long key) {
            int mask = keys.length - 1;
            int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
            while (keys[i] != -1 && keys[i] != key) i = (i + 1) & mask;
            return i;
        }

        TbB get(long key) {
            int i = slot(key);
            return keys[i] == key ? values[i] : null;
        }

        void put(long key, TbB t) {
            int i = slot(key);
            if (keys[i] == key) {
                values[i] = t;
                return;
            }
            keys[i] = key;
            values[i] = t;
            if (++size * 2 > keys.length) {
                long[] oldK = keys;
                TbB[] oldV = values;
                keys = emptyKeys(oldK.length * 2);
                values = new TbB[oldK.length * 2];
                for (int j = 0; j < oldK.length; j++) {
                    if (oldK[j] != -1) {
                        int k = slot(oldK[j]);
                        keys[k] = oldK[j];
                        values[k] = oldV[j];
                    }
                }
            }
        }
    }

    /** A channel's unhinted threadblocks in creation order; a taken slot is never freed, so cursors only advance. */
    private static final class ChannelTbs {
        final List<TbB> tbs = new ArrayList<>();
        int sendFree, recvFree;

        TbB firstFree(Role role) {
            if (role == Role.SEND) {
                while (sendFree < tbs.size() && tbs.get(sendFree).sendPeer != -1) sendFree++;
                return sendFree < tbs.size() ? tbs.get(sendFree) : null;
            }
            while (recvFree < tbs.size() && tbs.get(recvFree).recvPeer != -1) recvFree++;
            return recvFree < tbs.size() ? tbs.get(recvFree) : null;
        }
    }

    private final Diagnostics diags;
    private final int maxTbs;
    private final RankB[] ranks;

    private ThreadblockAssignment(int nranks, Diagnostics diags, int maxTbs) {
        this.diags = diags;
        this.maxTbs = maxTbs;
        this.ranks = new RankB[nranks];
        for (int i = 0; i < nranks; i++) ranks[i] = new RankB();
    }

    /**
     * Threadblocks per rank, with dependencies; null if errors were reported. Consumes {@code ops}:
     * each operation is cleared from the list once lowered, so that it is garbage while the steps
     * are made (a million at 1,024 ranks).
     */
    static List<List<Threadblock>> assign(Plan shape, Map<String, Integer> buffers, List<DslOp> ops, Diagnostics diags,
                                            int maxTbs) {
        ThreadblockAssignment a = new ThreadblockAssignment(shape.ranks(), diags, maxTbs);
        for (int i = 0; i < ops.size(); i++) {
            DslOp op = ops.set(i, null);
            try {
                a.lower(op);
            } catch (AssignError e) {
                diags.error(op.pos(), e.getMessage());
                if (diags.errorCount() >= diags.limit()) return null;
            }
        }
        if (diags.hasErrors()) return null;
        List<List<Threadblock>> out = new ArrayList<>();
        for (int r = 0; r < a.ranks.length; r++) {
            RankB rb = a.ranks[r];
            List<TbB> order = new ArrayList<>(rb.count);
            for (TbB t : rb.hinted) if (t != null) order.add(t);
            order.addAll(rb.auto);
            for (int i = 0; i < order.size(); i++) order.get(i).id = i;
            inferDependencies(shape, r, rb, buffers);
            // The rank's builders are garbage once its steps are made: dropped now, the plan's
            // builders and its steps are never all live at once.
            a.ranks[r] = null;
            List<Threadblock> tbs = new ArrayList<>(order.size());
            for (int i = 0; i < order.size(); i++) {
                TbB t = order.get(i);
                Step[] steps = new Step[t.steps.size()];
                for (int k = 0; k < steps.length; k++) {
                    StepB s = t.steps.get(k);
                    steps[k] = new Step(s.index, s.op, s.src, s.dst, s.peer, deps(s), s.depended, s.pos);
                }
                tbs.add(new Threadblock(t.id, t.sendPeer, t.recvPeer, t.channel, java.util.Arrays.asList(steps), t.pos));
            }
            out.add(tbs);
        }
        return out;
    }

    /** A step's dependencies as the IR keeps them: sorted, unmodifiable (and the one empty list when there are none). */
    private static List<Dep> deps(StepB s) {
        if (s.depSteps == null) return List.of();
        Dep[] deps = new Dep[s.depSteps.size()];
        for (int i = 0; i < deps.length; i++) {
            StepB d = s.depSteps.get(i);
            deps[i] = new Dep(d.tb.id, d.index);
        }
        java.util.Arrays.sort(deps);
        return List.of(deps);
    }

    private static final class AssignError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AssignError(String m) {
            super(m, null, false, false);
        }
    }

    private void lower(DslOp op) {
        int ch = op.channel();
        switch (op.kind()) {
            case COPY -> {
                if (op.src().rank() != op.dst().rank()) {
                    transfer(op, OpKind.SEND, OpKind.RECV, op.dst(), op.dst());
                } else {
                    TbB t = pick(op.src().rank(), Role.LOCAL, -1, localHint(op), ch, op.pos());
                    add(op.src().rank(), new StepB(OpKind.COPY, op.src(), op.dst(), -1, op.pos(), t));
                }
            }
            case REDUCE -> {
                if (op.src().rank() != op.dst().rank()) {
                    transfer(op, OpKind.SEND, OpKind.RECV_REDUCE_COPY, op.dst(), op.dst());
                } else {
                    TbB t = pick(op.dst().rank(), Role.LOCAL, -1, localHint(op), ch, op.pos());
                    add(op.dst().rank(), new StepB(OpKind.REDUCE, op.src(), op.dst(), -1, op.pos(), t));
                }
            }
            case PUT, GET, SIGNAL, WAIT -> {
                OpKind k = switch (op.kind()) {
                    case PUT -> OpKind.PUT;
                    case GET -> OpKind.GET;
                    case SIGNAL -> OpKind.SIGNAL;
                    default -> OpKind.WAIT;
                };
                TbB t = pick(op.rank(), Role.LOCAL, -1, op.tb(), ch, op.pos());
                add(op.rank(), new StepB(k, op.src(), op.dst(), op.peer(), op.pos(), t));
            }
        }
    }

    private static int localHint(DslOp op) {
        if (op.tb() >= 0) return op.tb();
        return op.sendTb() >= 0 ? op.sendTb() : op.recvTb();
    }

    /** A cross-rank copy or reduce: a send on the source rank, a receive on the destination. */
    private void transfer(DslOp op, OpKind sendOp, OpKind recvOp, ChunkRef recvSrc, ChunkRef recvDst) {
        int from = op.src().rank(), to = op.dst().rank();
        TbB s = pick(from, Role.SEND, to, op.sendTb() >= 0 ? op.sendTb() : op.tb(), op.channel(), op.pos());
        TbB r = pick(to, Role.RECV, from, op.recvTb() >= 0 ? op.recvTb() : op.tb(), op.channel(), op.pos());
        add(from, new StepB(sendOp, op.src(), null, -1, op.pos(), s));
        // recv-reduce-copy reads the local chunk it reduces into; a plain recv reads nothing.
        add(to, new StepB(recvOp, recvOp.readsSrc ? recvSrc : null, recvDst, -1, op.pos(), r));
    }

    private void add(int rank, StepB s) {
        s.tb.steps.add(s);
        ranks[rank].programOrder.add(s);
    }

    private TbB pick(int rank, Role role, int peer, int hint, int ch, SourcePos pos) {
        RankB rb = ranks[rank];
        long key = role == Role.LOCAL ? -1 : peerChannel(peer, ch);
        TbMap owners = role == Role.SEND ? rb.sender : rb.receiver;
        TbB t;
        if (hint >= 0) {
            t = hint < rb.hinted.length ? rb.hinted[hint] : null;
            if (t == null) {
                t = newTb(rank, rb, hint, ch, pos);
                if (hint >= rb.hinted.length) rb.hinted = java.util.Arrays.copyOf(rb.hinted, Math.max(hint + 1, rb.hinted.length * 2));
                rb.hinted[hint] = t;
            } else if (t.channel != ch) {
                throw new AssignError("threadblock " + hint + " of rank " + rank + " is on channel " + t.channel
                        + "; this operation asks for channel " + ch);
            }
        } else if (role == Role.LOCAL) {
            ChannelTbs c = rb.autoByChannel.get(ch);
            t = c == null || c.tbs.isEmpty() ? newAuto(rank, rb, ch, pos) : c.tbs.get(0);
        } else {
            t = owners.get(key);
            if (t == null) {
                ChannelTbs c = rb.autoByChannel.get(ch);
                t = c == null ? null : c.firstFree(role);
                if (t == null) t = newAuto(rank, rb, ch, pos);
            }
        }
        if (role == Role.LOCAL) return t;
        int current = role == Role.SEND ? t.sendPeer : t.recvPeer;
        String verb = role == Role.SEND ? "sends to" : "receives from";
        if (current == -1) {
            TbB owner = owners.get(key);
            if (owner != null && owner != t) {
                throw new AssignError("rank " + rank + ": threadblocks " + label(owner) + " and " + label(t) + " both "
                        + verb + " rank " + peer + " on channel " + ch + "; give them different channels (ch = ...)");
            }
            if (role == Role.SEND) t.sendPeer = peer;
            else t.recvPeer = peer;
            owners.put(key, t);
        } else if (current != peer) {
            throw new AssignError("threadblock " + label(t) + " of rank " + rank + " already " + verb + " rank " + current
                    + "; a threadblock has one " + (role == Role.SEND ? "send" : "recv") + " peer, so it cannot also "
                    + (role == Role.SEND ? "send to" : "receive from") + " rank " + peer);
        }
        return t;
    }

    private static String label(TbB t) {
        return t.hint >= 0 ? String.valueOf(t.hint) : "(automatic)";
    }

    private TbB newAuto(int rank, RankB rb, int ch, SourcePos pos) {
        TbB t = newTb(rank, rb, -1, ch, pos);
        rb.auto.add(t);
        rb.autoByChannel.computeIfAbsent(ch, x -> new ChannelTbs()).tbs.add(t);
        return t;
    }

    private TbB newTb(int rank, RankB rb, int hint, int ch, SourcePos pos) {
        if (++rb.count > maxTbs) {
            throw new AssignError("rank " + rank + " needs more than " + maxTbs
                    + " threadblocks (raise it with --limit threadblocks=N)");
        }
        return new TbB(hint, ch, pos);
    }

    /** Dense ids of a rank's chunk slots after in-place aliasing: id = base[buffer] + index. */
    private static final class SlotIds {
        final Map<String, Integer> base = new HashMap<>();
        final int size;

        SlotIds(Plan shape, int rank, Map<String, Integer> buffers) {
            Map<String, Integer> canon = new HashMap<>();
            int next = 0;
            for (Map.Entry<String, Integer> e : buffers.entrySet()) {
                canon.put(e.getKey(), next);
                next += e.getValue();
            }
            size = next;
            for (String name : buffers.keySet()) {
                BufferLayout.Slot at0 = BufferLayout.resolve(shape, rank, name, 0);
                Integer b = canon.get(at0.buffer());
                base.put(name, b == null ? canon.get(name) : b + at0.index());
            }
        }

        void add(ChunkRef c, int[] out, int[] n) {
            int b = base.get(c.buffer()) + c.index();
            for (int i = 0; i < c.count(); i++) out[n[0]++] = b + i;
        }
    }

    @SuppressWarnings("unchecked")
    private static void inferDependencies(Plan shape, int rank, RankB rb, Map<String, Integer> buffers) {
        SlotIds ids = new SlotIds(shape, rank, buffers);
        StepB[] lastWriter = new StepB[ids.size];
        List<StepB>[] readers = new List[ids.size];
        List<StepB> waits = new ArrayList<>();
        int[] reads = new int[16], writes = new int[16];
        int[] nr = new int[1], nw = new int[1];
        for (StepB s : rb.programOrder) {
            int need = (s.src == null ? 0 : s.src.count()) * 2 + (s.dst == null ? 0 : s.dst.count()) * 2;
            if (reads.length < need) {
                reads = new int[need];
                writes = new int[need];
            }
            nr[0] = 0;
            nw[0] = 0;
            waits.clear();
            if (s.op.readsSrc && s.src != null && s.src.rank() == rank) ids.add(s.src, reads, nr);
            if (s.op.writesDst && s.dst != null && s.dst.rank() == rank) {
                ids.add(s.dst, writes, nw);
                if (s.op.reduces) ids.add(s.dst, reads, nr);
            }
            if (s.op.sends && s.src != null && !(s.op.readsSrc && s.src.rank() == rank)) ids.add(s.src, reads, nr);
            for (int i = 0; i < nr[0]; i++) need(s, lastWriter[reads[i]], waits);
            for (int i = 0; i < nw[0]; i++) {
                need(s, lastWriter[writes[i]], waits);
                if (readers[writes[i]] != null) for (StepB r : readers[writes[i]]) need(s, r, waits);
            }
            for (StepB d : waits) {
                if (s.depSteps == null) s.depSteps = new ArrayList<>(waits.size());
                s.depSteps.add(d);
                d.depended = true;
            }
            for (int i = 0; i < nr[0]; i++) {
                List<StepB> rs = readers[reads[i]];
                if (rs == null) readers[reads[i]] = rs = new ArrayList<>(2);
                // A later reader on the same threadblock replaces the one before it: a writer waits
                // only for the latest step per threadblock, and a slot read again and again keeps one entry.
                if (!rs.isEmpty() && rs.get(rs.size() - 1).tb == s.tb) rs.set(rs.size() - 1, s);
                else rs.add(s);
            }
            for (int i = 0; i < nw[0]; i++) {
                lastWriter[writes[i]] = s;
                readers[writes[i]] = null;
            }
        }
    }

    /** Records that {@code s} waits for {@code on}, keeping the latest step per threadblock. */
    private static void need(StepB s, StepB on, List<StepB> waits) {
        if (on == null || on.tb == s.tb) return;
        for (int i = 0; i < waits.size(); i++) {
            if (waits.get(i).tb == on.tb) {
                if (waits.get(i).index < on.index) waits.set(i, on);
                return;
            }
        }
        waits.add(on);
    }
}
