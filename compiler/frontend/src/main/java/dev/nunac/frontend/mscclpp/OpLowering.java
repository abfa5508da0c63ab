package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.OpKind;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lowers one MSCCL++ operation to IR steps that touch the same chunks, local and remote:
 * copies become COPY, PUT (remote destination) or GET (remote source); reductions accumulate
 * into their first local destination (REDUCE for a local operand, GET_REDUCE for a remote one)
 * and then copy or put the result to the other destinations; packet variants move the same
 * chunks; signal and wait name the channel's peer; flushes and MSCCL++'s {@code nop} (a
 * synchronisation inside one threadblock) carry no data and become NOP. Barriers and semaphore
 * operations order threadblocks of one GPU: they become NOP steps marked with a {@link Sync},
 * which {@link SyncEdges} turns into dependency edges once the whole GPU is lowered. A
 * {@code pipeline} lowers its nested operations once.
 *
 * <p>A threadblock group ({@code tbg_info}) splits one operation's bytes among its members,
 * below the chunk unit the IR tracks. The member with {@code tb_id} 0 carries the whole data
 * operation; the other members keep the operation's signals and waits and get a NOP for each
 * data step, so each chunk is moved (and each reduction applied) once, and every member still
 * takes part in the group's synchronisation.
 */
final class OpLowering {
    /** A lowered step before its threadblock gives it an index. */
    record Draft(OpKind op, ChunkRef src, ChunkRef dst, int peer, SourcePos pos, int channel, Sync sync) {
        Draft(OpKind op, ChunkRef src, ChunkRef dst, int peer, SourcePos pos, int channel) {
            this(op, src, dst, peer, pos, channel, null);
        }

        Draft(OpKind op, ChunkRef src, ChunkRef dst, int peer, SourcePos pos) {
            this(op, src, dst, peer, pos, -1, null);
        }

        static Draft sync(Sync sync, SourcePos pos) {
            return new Draft(OpKind.NOP, null, null, -1, pos, -1, sync);
        }

        boolean movesData() {
            return src != null || dst != null;
        }
    }

    /**
     * A synchronisation between threadblocks of one GPU, on a NOP step: a semaphore release or
     * acquire (of every semaphore in {@code ids}), or one half of a barrier: every participant
     * arrives, then leaves once all {@code count} participants have arrived.
     */
    record Sync(Kind kind, List<Integer> ids, int count) {
        enum Kind { RELEASE, ACQUIRE, ARRIVE, LEAVE }

        Sync {
            ids = List.copyOf(ids);
        }
    }

    /** A signal or wait's peer and the connection it travels on ({@link Resources#connection}). */
    private record Link(int peer, int connection) {}

    private static final Set<String> NOPS = Set.of("nop", "flush");
    private static final Set<String> SIGNALS = Set.of("signal", "rlxsignal");
    private static final Set<String> WAITS = Set.of("wait", "rlxwait");
    private static final Set<String> COPIES = Set.of("put", "pws", "pwsf", "get", "copy", "ppkt", "rppkt", "cpkt", "upkt",
            "gstore", "gstorepkt");
    private static final Set<String> REDUCES = Set.of("re", "res", "rre", "rres", "respkt", "repkt", "recpkt", "recspkt",
            "glres");
    static final String KNOWN = "barrier, copy, cpkt, flush, get, glres, gstore, gstorepkt, nop, pipeline, ppkt, put, pws,"
            + " pwsf, re, recpkt, recspkt, repkt, res, respkt, rlxsignal, rlxwait, rppkt, rre, rres, sem_acquire,"
            + " sem_release, signal, upkt, wait";

    private final Resources res;
    private final Diagnostics d;
    private final List<Draft> out;

    OpLowering(Resources res, Diagnostics d, List<Draft> out) {
        this.res = res;
        this.d = d;
        this.out = out;
    }

    void lower(JNode node, String path, int depth) {
        JsonFields m = JsonFields.of(node, path, JsonFields.collect(d));
        if (m == null) return;
        JNode.JObject op = m.node();
        String name = m.string("name", true);
        if (name == null) return;
        String chType = m.raw("channel_type") instanceof JNode.JString s ? s.value() : "memory";
        int from = out.size();
        lowerNamed(op, m, name, chType, depth);
        if (!name.equals("pipeline") && groupMemberOtherThanFirst(m)) {
            for (int i = from; i < out.size(); i++) {
                Draft s = out.get(i);
                if (s.movesData()) out.set(i, new Draft(OpKind.NOP, null, null, -1, s.pos()));
            }
        }
    }

    /** True when the operation belongs to a threadblock group and this threadblock is not its first member. */
    private boolean groupMemberOtherThanFirst(JsonFields op) {
        JsonFields gm = op.has("tbg_info") ? op.obj("tbg_info", true) : null;
        if (gm == null) return false;
        Integer id = gm.integer("tb_id", true, 0, Integer.MAX_VALUE);
        Integer size = gm.integer("tbg_size", true, 1, Integer.MAX_VALUE);
        if (id == null || size == null) return false;
        if (id >= size) {
            gm.error("tb_id " + id + " in a group of " + size + "; tb_id must be below tbg_size");
            return false;
        }
        return id > 0;
    }

    private void lowerNamed(JNode.JObject op, JsonFields m, String name, String chType, int depth) {
        if (name.equals("pipeline")) {
            List<JNode> nested = m.items("ops", true);
            for (int i = 0; i < nested.size(); i++) lower(nested.get(i), m.at("ops") + "[" + i + "]", depth + 1);
        } else if (NOPS.contains(name)) {
            out.add(new Draft(OpKind.NOP, null, null, -1, op.pos()));
        } else if (name.equals("sem_acquire") || name.equals("sem_release")) {
            List<Integer> ids = new ArrayList<>();
            m.eachInt("semaphore_ids", 0, Integer.MAX_VALUE, (id, at, i) -> {
                if (i < res.semaphores()) ids.add(i);
                else d.error(id.pos(), "semaphore id " + i + " names no semaphore of gpu " + res.rank() + " (it has " + res.semaphores() + ")");
            });
            Sync.Kind kind = name.equals("sem_acquire") ? Sync.Kind.ACQUIRE : Sync.Kind.RELEASE;
            out.add(Draft.sync(new Sync(kind, ids, 0), op.pos()));
        } else if (name.equals("barrier")) {
            Integer id = m.integer("barrier_id", true, 0, Integer.MAX_VALUE);
            String countKey = m.has("nthread_blocks") ? "nthread_blocks" : "num_threadblocks";
            Integer count = m.integer(countKey, true, 1, Integer.MAX_VALUE);
            if (id == null || count == null) return;
            out.add(Draft.sync(new Sync(Sync.Kind.ARRIVE, List.of(id), count), op.pos()));
            out.add(Draft.sync(new Sync(Sync.Kind.LEAVE, List.of(id), count), op.pos()));
        } else if (SIGNALS.contains(name) || WAITS.contains(name)) {
            for (Link l : links(m, chType)) {
                out.add(new Draft(SIGNALS.contains(name) ? OpKind.SIGNAL : OpKind.WAIT, null, null, l.peer(), op.pos(), l.connection()));
            }
        } else if (COPIES.contains(name)) {
            copy(op, m, name, chType);
            if (name.equals("pws") || name.equals("pwsf")) {
                for (Link l : links(m, chType)) out.add(new Draft(OpKind.SIGNAL, null, null, l.peer(), op.pos(), l.connection()));
            }
        } else if (REDUCES.contains(name)) {
            reduce(op, m, name, chType);
        } else {
            d.error(op.pos(), "unknown operation '" + Text.shown(name) + "' (known: " + KNOWN + ")");
        }
    }

    /** The channels an operation's {@code channel_ids} name: each one's peer and connection. */
    private List<Link> links(JsonFields m, String chType) {
        List<Link> links = new ArrayList<>();
        m.eachInt("channel_ids", 0, Integer.MAX_VALUE, (id, at, i) -> {
            int ch = res.channel(chType, i);
            int peer = res.peer(chType, ch);
            if (peer < 0) d.error(id.pos(), "channel id " + i + " names no " + chType + " channel of this threadblock");
            else links.add(new Link(peer, res.connection(chType, ch)));
        });
        return links;
    }

    private void copy(JNode.JObject op, JsonFields m, String name, String chType) {
        List<ChunkRef> src = operands(m, "src_buff", chType);
        List<ChunkRef> dst = operands(m, "dst_buff", chType);
        if (src == null || dst == null) return;
        if (src.isEmpty() || dst.isEmpty() || (src.size() != 1 && src.size() != dst.size())) {
            d.error(op.pos(), "'" + Text.shown(name) + "' needs one source or as many sources as destinations, found "
                    + src.size() + " and " + dst.size());
            return;
        }
        for (int i = 0; i < dst.size(); i++) move(op.pos(), src.get(src.size() == 1 ? 0 : i), dst.get(i));
    }

    private void reduce(JNode.JObject op, JsonFields m, String name, String chType) {
        List<ChunkRef> src = operands(m, "src_buff", chType);
        List<ChunkRef> dst = operands(m, "dst_buff", chType);
        if (src == null || dst == null) return;
        ChunkRef acc = null;
        for (ChunkRef c : dst) if (c.rank() == res.rank()) { acc = c; break; }
        if (src.isEmpty() || acc == null) {
            d.error(op.pos(), "'" + Text.shown(name) + "' needs a source and a local destination to reduce into");
            return;
        }
        List<ChunkRef> rest = new ArrayList<>(src);
        if (!rest.remove(acc)) move(op.pos(), rest.remove(0), acc); // acc = first source, then ⊕ the others
        for (ChunkRef s : rest) {
            boolean remote = s.rank() != res.rank();
            out.add(new Draft(remote ? OpKind.GET_REDUCE : OpKind.REDUCE, s, acc, remote ? s.rank() : -1, op.pos()));
        }
        for (ChunkRef t : dst) if (!t.equals(acc)) move(op.pos(), acc, t);
    }

    /** A copy between two chunks of which at most one is remote. */
    private void move(SourcePos pos, ChunkRef s, ChunkRef t) {
        boolean rs = s.rank() != res.rank(), rt = t.rank() != res.rank();
        if (rs && rt) d.error(pos, "a copy between two remote buffers (" + s + " to " + t + ") cannot be expressed");
        else if (rt) out.add(new Draft(OpKind.PUT, s, t, t.rank(), pos));
        else if (rs) out.add(new Draft(OpKind.GET, s, t, s.rank(), pos));
        else out.add(new Draft(OpKind.COPY, s, t, -1, pos));
    }

    /** The chunks an operand list names; a switch operand names that chunk on every rank of its group. */
    private List<ChunkRef> operands(JsonFields m, String member, String chType) {
        List<ChunkRef> refs = new ArrayList<>();
        int before = d.errorCount();
        List<JNode> items = m.has(member) ? m.items(member, true) : List.of();
        for (int k = 0; k < items.size(); k++) {
            JsonFields bm = m.item(member, k, items.get(k));
            if (bm == null) continue;
            JNode.JObject b = bm.node();
            Integer index = bm.integer("index", true, 0, Integer.MAX_VALUE);
            Integer size = bm.integer("size", true, 1, Integer.MAX_VALUE);
            if (index == null || size == null) continue;
            if (bm.has("type")) {
                String buf = bufferName(bm, "type");
                if (buf != null) refs.add(new ChunkRef(res.rank(), buf, index, size));
            } else if (bm.has("buffer_id")) {
                Integer id = bm.integer("buffer_id", true, 0, Integer.MAX_VALUE);
                if (id == null) continue;
                Resources.RemoteBuffer rb = res.remote(chType, id);
                if (rb == null) d.error(b.pos(), "buffer_id " + id + " names no remote buffer of this threadblock");
                else refs.add(new ChunkRef(rb.rank(), rb.buffer(), index, size));
            } else if (bm.has("switch_channel_id")) {
                Integer id = bm.integer("switch_channel_id", true, 0, Integer.MAX_VALUE);
                if (id == null) continue;
                int g = res.channel("switch", id);
                if (g < 0 || g >= res.switches().size()) {
                    d.error(b.pos(), "switch_channel_id " + id + " names no switch channel of this threadblock");
                    continue;
                }
                Resources.SwitchChannel sc = res.switches().get(g);
                for (int r : sc.ranks()) refs.add(new ChunkRef(r, sc.buffer(), index, size));
            } else {
                bm.error("must have one of 'type', 'buffer_id' or 'switch_channel_id'");
            }
        }
        return d.errorCount() > before ? null : refs;
    }

    static final Map<String, String> BUFFERS = Map.of("i", Buffer.INPUT, "o", Buffer.OUTPUT, "s", Buffer.SCRATCH);

    /** The buffer a member {@code i}, {@code o} or {@code s} names. */
    static String bufferName(JsonFields o, String field) {
        String letter = o.choice(field, true, List.of("i", "o", "s"));
        return letter == null ? null : BUFFERS.get(letter);
    }
}
