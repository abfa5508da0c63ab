package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.Text;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Dep;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.PlanLimits;
import dev.nunac.ir.Protocol;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The MSCCL++ execution-plan front end (the JSON that MSCCL++'s executor loads): gpus, their
 * buffers, channels and remote buffers, and each threadblock's operations, lowered by
 * {@link OpLowering}. MSCCL++ threadblocks talk to any number of peers through one-sided
 * operations, so their send and recv peers are -1 and each step names its peer. Signals and
 * waits name the connection of the channel they use ({@code Resources.connection}), which is
 * what pairs them with the peer's; a threadblock's own channel is that of its first channel.
 */
public final class MscclppJsonImporter {
    /** Top-level members kept as plan attributes (the executor reads them; nothing here does). */
    private static final List<String> KEPT = List.of("reuse_resources", "num_threads_per_block",
            "use_double_scratch_buffer", "buffer_alignment", "min_message_size", "max_message_size");

    private final Diagnostics d = new Diagnostics();
    private final Limits limits;
    private long steps;

    private MscclppJsonImporter(Limits limits) {
        this.limits = limits;
    }

    public static Plan read(String file, byte[] bytes, Limits limits) {
        JNode root = JsonReader.parse(file, bytes, JsonLimits.plan(limits));
        return new MscclppJsonImporter(limits).plan(root);
    }

    private Plan plan(JNode rootNode) {
        JsonFields m = JsonFields.root(rootNode, JsonFields.collect(d));
        if (m == null) d.throwIfErrors(ErrorKind.PLAN);
        JNode.JObject root = m.node();
        String name = m.string("name", true);
        String coll = m.string("collective", true);
        String proto = m.string("protocol", true);
        Boolean inplace = m.bool("inplace", true);
        List<JNode> gpus = m.items("gpus", true);
        // Names and kept members reach messages, reports and headers: no line breaks or NULs in them.
        for (String k : printable()) {
            if (m.raw(k) instanceof JNode.JString v) Text.checkPrintable(v.value(), m.at(k) + ":", v.pos(), d);
        }
        executorSettings(m);
        Protocol protocol = proto == null ? null : Protocol.parse(proto).orElse(null);
        if (proto != null && protocol == null) m.error("protocol", "must be Simple or LL, found '" + Text.shown(proto) + "'");
        if (gpus.size() > limits.maxRanks()) {
            throw new CompileException(ErrorKind.PLAN, m.raw("gpus").pos(), "more than " + limits.maxRanks()
                    + " gpus (raise the limit with --limit ranks=N)");
        }
        if (m.raw("gpus") instanceof JNode.JArray && gpus.isEmpty()) m.error("gpus", "the plan has no gpus");
        Collective collective = coll == null ? Collective.CUSTOM : Collective.parse(coll).orElse(Collective.CUSTOM);
        List<RankPlan> ranks = new ArrayList<>();
        int[][] chunks = new int[gpus.size()][];
        for (int k = 0; k < gpus.size(); k++) {
            chunks[k] = new int[3];
            RankPlan rp = gpu(m.item("gpus", k, gpus.get(k)), k, gpus.size(), chunks[k]);
            if (rp != null) ranks.add(rp);
        }
        d.throwIfErrors(ErrorKind.PLAN);
        TreeMap<String, String> attrs = new TreeMap<>();
        for (String k : KEPT) if (m.has(k)) attrs.put(k, text(m.raw(k)));
        if (collective == Collective.CUSTOM) attrs.put("collective", coll);
        int n = gpus.size();
        int cf = switch (collective) {
            case ALLGATHER -> chunks[0][1] / n;
            case ALLTOALL, REDUCESCATTER -> chunks[0][0] / n;
            default -> Math.max(chunks[0][0], chunks[0][1]);
        };
        Plan plan = new Plan(name, collective, n, Math.max(1, cf), inplace, protocol, 1, ranks, PlanFormat.MSCCLPP_JSON,
                attrs, root.pos());
        PlanLimits.checkChunks(plan, 1, limits);
        PlanLimits.checkStepChunks(plan, limits);
        IrVerifier.verify(plan, d);
        d.throwIfErrors(ErrorKind.PLAN);
        return plan;
    }

    /**
     * Members only the executor reads, kept as attributes and written back by the placed JSON: of
     * the types the executor reads them as (unsigned 64-bit sizes, positive thread counts and
     * alignments, booleans), so that a plan the executor would refuse is refused here too.
     */
    private void executorSettings(JsonFields m) {
        for (String k : List.of("num_threads_per_block", "buffer_alignment")) if (m.has(k)) m.integer(k, true, 1, Integer.MAX_VALUE);
        java.math.BigDecimal max = new java.math.BigDecimal(java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE));
        for (String k : List.of("min_message_size", "max_message_size")) {
            JNode v = m.raw(k);
            if (v == null) continue;
            if (!(v instanceof JNode.JNumber x && x.integral() && x.value().signum() >= 0 && x.value().compareTo(max) <= 0)) {
                m.mustBe(v, m.at(k), "an integer from 0 to 18446744073709551615");
            }
        }
        for (String k : List.of("reuse_resources", "use_double_scratch_buffer")) if (m.has(k)) m.bool(k, true);
    }

    /** A kept member's text as the placed JSON writes it back. */
    private static String text(JNode v) {
        if (v instanceof JNode.JString s) return s.value();
        if (v instanceof JNode.JNumber x) return x.integral() ? x.value().toBigInteger().toString() : x.value().toString();
        if (v instanceof JNode.JBool b) return String.valueOf(b.value());
        return v instanceof JNode.JNull ? "null" : "";
    }

    /** The plan's members whose text is kept: its name, collective, protocol and those in {@link #KEPT}. */
    private static List<String> printable() {
        List<String> out = new ArrayList<>(List.of("name", "collective", "protocol"));
        out.addAll(KEPT);
        return out;
    }

    private RankPlan gpu(JsonFields m, int k, int ngpus, int[] chunks) {
        if (m == null) return null;
        JNode.JObject g = m.node();
        int before = d.errorCount();
        Integer id = m.integer("id", true, 0, Integer.MAX_VALUE);
        if (id != null && id != k) m.error("id", "gpu " + k + " has id " + id + "; ids must equal positions");
        chunks[0] = count(m, "input_chunks");
        chunks[1] = count(m, "output_chunks");
        chunks[2] = count(m, "scratch_chunks");
        Map<String, List<Integer>> peers = new HashMap<>();
        List<Resources.SwitchChannel> switches = new ArrayList<>();
        List<JNode> cs = optional(m, "channels");
        for (int i = 0; i < cs.size(); i++) channel(m.item("channels", i, cs.get(i)), k, ngpus, peers, switches);
        List<Resources.RemoteBuffer> remotes = new ArrayList<>();
        List<JNode> rbs = optional(m, "remote_buffers");
        for (int i = 0; i < rbs.size(); i++) {
            JsonFields bm = m.item("remote_buffers", i, rbs.get(i));
            if (bm == null) continue;
            Integer rank = bm.integer("rank", true, 0, Integer.MAX_VALUE);
            String buf = OpLowering.bufferName(bm, "type");
            remotes.add(new Resources.RemoteBuffer(rank == null ? -1 : rank, buf));
        }
        List<Integer> semaphores = new ArrayList<>();
        List<JNode> sems = optional(m, "semaphores");
        for (int i = 0; i < sems.size(); i++) {
            JsonFields sm = m.item("semaphores", i, sems.get(i));
            if (sm == null) continue;
            Integer init = sm.has("init_value") ? sm.integer("init_value", true, 0, Integer.MAX_VALUE) : Integer.valueOf(0);
            semaphores.add(init == null ? -1 : init);
        }
        if (d.errorCount() > before) return null;
        Resources res = new Resources(k, peers, switches, remotes, semaphores.size(), Map.of(), Map.of());
        List<JNode> tbs = m.items("threadblocks", true);
        if (tbs.size() > limits.maxThreadblocksPerRank()) {
            throw new CompileException(ErrorKind.PLAN, m.raw("threadblocks").pos(), "gpu " + k + " has more than "
                    + limits.maxThreadblocksPerRank() + " threadblocks (raise the limit with --limit threadblocks=N)");
        }
        List<List<OpLowering.Draft>> drafts = new ArrayList<>();
        List<Integer> channels = new ArrayList<>();
        for (int t = 0; t < tbs.size(); t++) {
            List<OpLowering.Draft> steps = new ArrayList<>();
            channels.add(threadblock(m.item("threadblocks", t, tbs.get(t)), t, res, steps));
            drafts.add(steps);
        }
        if (d.errorCount() > before) return null;
        for (List<OpLowering.Draft> tb : drafts) steps += tb.size();
        if (steps > limits.maxSteps()) {
            throw new CompileException(ErrorKind.PLAN, g.pos(), "more than " + limits.maxSteps()
                    + " steps (raise the limit with --limit steps=N)");
        }
        List<List<List<Dep>>> deps = SyncEdges.of(k, drafts, semaphores, d);
        List<Threadblock> out = new ArrayList<>();
        for (int t = 0; t < tbs.size(); t++) {
            List<Step> steps = new ArrayList<>(drafts.get(t).size());
            for (OpLowering.Draft s : drafts.get(t)) {
                steps.add(new Step(steps.size(), s.op(), s.src(), s.dst(), s.peer(), deps.get(t).get(steps.size()), false,
                        s.pos(), s.channel()));
            }
            out.add(new Threadblock(t, -1, -1, channels.get(t), steps, tbs.get(t).pos()));
        }
        List<Buffer> buffers = new ArrayList<>(List.of(new Buffer(Buffer.INPUT, BufferKind.INPUT, chunks[0]),
                new Buffer(Buffer.OUTPUT, BufferKind.OUTPUT, chunks[1])));
        if (chunks[2] > 0) buffers.add(new Buffer(Buffer.SCRATCH, BufferKind.SCRATCH, chunks[2]));
        return new RankPlan(k, buffers, out);
    }

    private void channel(JsonFields m, int rank, int ngpus, Map<String, List<Integer>> peers,
                         List<Resources.SwitchChannel> switches) {
        if (m == null) return;
        String type = m.choice("channel_type", true, List.of("memory", "port", "switch"));
        if (type == null) return;
        if (type.equals("switch")) {
            String buf = OpLowering.bufferName(m, "buffer_type");
            List<Integer> group = List.of();
            List<JNode> rgs = m.items("rank_groups", true);
            for (int i = 0; i < rgs.size(); i++) {
                JsonFields rg = m.item("rank_groups", i, rgs.get(i));
                if (rg == null) continue;
                List<Integer> rs = new ArrayList<>();
                rg.eachInt("ranks", 0, Integer.MAX_VALUE, (n, at, r) -> rs.add(r));
                if (rs.contains(rank)) group = rs;
            }
            switches.add(new Resources.SwitchChannel(buf, group));
        } else {
            m.eachInt("connected_to", 0, Integer.MAX_VALUE, (p, at, peer) -> {
                if (peer >= ngpus || peer == rank) m.error(p, at, "channel of gpu " + rank + " is connected to " + peer + ", which is not another rank");
                peers.computeIfAbsent(type, x -> new ArrayList<>()).add(peer);
            });
        }
    }

    /** Lowers a threadblock's operations into {@code drafts}; returns its own channel. */
    private int threadblock(JsonFields m, int k, Resources gpuRes, List<OpLowering.Draft> drafts) {
        if (m == null) return 0;
        Integer id = m.integer("id", true, 0, Integer.MAX_VALUE);
        if (id != null && id != k) m.error("id", "threadblock " + k + " has id " + id + "; ids must equal positions");
        Map<String, List<Integer>> channels = idLists(m, "channels", "channel_type", "channel_ids");
        Map<String, List<Integer>> remote = idLists(m, "remote_buffer_refs", "access_channel_type", "remote_buffer_ids");
        Resources res = gpuRes.forThreadblock(channels, remote);
        OpLowering lowering = new OpLowering(res, d, drafts);
        List<JNode> ops = m.items("ops", true);
        for (int i = 0; i < ops.size(); i++) lowering.lower(ops.get(i), m.at("ops") + "[" + i + "]", 0);
        return firstChannelOrdinal(res, channels);
    }

    private static int firstChannelOrdinal(Resources res, Map<String, List<Integer>> channels) {
        for (String type : List.of("memory", "port")) {
            List<Integer> ids = channels.getOrDefault(type, List.of());
            if (!ids.isEmpty() && res.peer(type, ids.get(0)) >= 0) return res.connection(type, ids.get(0));
        }
        return 0;
    }

    private Map<String, List<Integer>> idLists(JsonFields tb, String field, String typeKey, String idsKey) {
        Map<String, List<Integer>> out = new HashMap<>();
        List<JNode> entries = optional(tb, field);
        for (int k = 0; k < entries.size(); k++) {
            JsonFields m = tb.item(field, k, entries.get(k));
            if (m == null) continue;
            String type = m.string(typeKey, true);
            List<Integer> ids = new ArrayList<>();
            m.eachInt(idsKey, 0, Integer.MAX_VALUE, (n, at, v) -> ids.add(v));
            if (type != null) out.computeIfAbsent(type, x -> new ArrayList<>()).addAll(ids);
        }
        return out;
    }

    /** An array member that may be left out: empty then. */
    private static List<JNode> optional(JsonFields m, String field) {
        return m.has(field) ? m.items(field, true) : List.of();
    }

    /** A required count, or -1 after reporting it (the gpu is then dropped). */
    private static int count(JsonFields m, String field) {
        Integer v = m.integer(field, true, 0, Integer.MAX_VALUE);
        return v == null ? -1 : v;
    }
}
