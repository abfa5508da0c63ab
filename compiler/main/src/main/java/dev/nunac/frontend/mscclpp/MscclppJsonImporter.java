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
        JsonNode root = JsonTreeReader.read(file, bytes, limits);
        return new MscclppJsonImporter(limits).plan(root);
    }

    private Plan plan(JsonNode root) {
        if (!Members.isObject(root, "an MSCCL++ execution plan", d)) d.throwIfErrors(ErrorKind.PLAN);
        Members m = new Members(root, "the plan", d);
        String name = m.string("name");
        String coll = m.string("collective");
        String proto = m.string("protocol");
        Boolean inplace = m.bool("inplace");
        List<JsonNode> gpus = m.array("gpus", false);
        // Names and kept members reach messages, reports and headers: no line breaks or NULs in them.
        for (String k : printable()) {
            JsonNode v = root.get(k);
            if (v != null && v.kind() == JsonNode.Kind.STRING) Text.checkPrintable(v.text(), "'" + k + "' of the plan", v.pos(), d);
        }
        executorSettings(root, m);
        Protocol protocol = proto == null ? null : Protocol.parse(proto).orElse(null);
        if (proto != null && protocol == null) {
            d.error(root.get("protocol").pos(), "unknown protocol '" + Text.shown(proto) + "' (expected Simple or LL)");
        }
        if (gpus.size() > limits.maxRanks()) {
            throw new CompileException(ErrorKind.PLAN, root.get("gpus").pos(), "more than " + limits.maxRanks()
                    + " gpus (raise the limit with --limit ranks=N)");
        }
        if (root.get("gpus") != null && gpus.isEmpty()) d.error(root.get("gpus").pos(), "the plan has no gpus");
        Collective collective = coll == null ? Collective.CUSTOM : Collective.parse(coll).orElse(Collective.CUSTOM);
        List<RankPlan> ranks = new ArrayList<>();
        int[][] chunks = new int[gpus.size()][];
        for (int k = 0; k < gpus.size(); k++) {
            chunks[k] = new int[3];
            RankPlan rp = gpu(gpus.get(k), k, gpus.size(), chunks[k]);
            if (rp != null) ranks.add(rp);
        }
        d.throwIfErrors(ErrorKind.PLAN);
        TreeMap<String, String> attrs = new TreeMap<>();
        for (String k : KEPT) if (root.get(k) != null) attrs.put(k, root.get(k).text() == null ? "" : root.get(k).text());
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
    private void executorSettings(JsonNode root, Members m) {
        for (String k : List.of("num_threads_per_block", "buffer_alignment")) {
            JsonNode v = root.get(k);
            if (v != null) m.integer(v, k, 1);
        }
        java.math.BigInteger max = java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE);
        for (String k : List.of("min_message_size", "max_message_size")) {
            JsonNode v = root.get(k);
            if (v == null) continue;
            if (!v.isInt() || new java.math.BigInteger(v.text()).signum() < 0 || new java.math.BigInteger(v.text()).compareTo(max) > 0) {
                d.error(v.pos(), "'" + k + "' of the plan must be an integer from 0 to 18446744073709551615, found "
                        + (v.isInt() ? Text.shown(v.text()) : v.describe()));
            }
        }
        for (String k : List.of("reuse_resources", "use_double_scratch_buffer")) {
            JsonNode v = root.get(k);
            if (v != null && v.kind() != JsonNode.Kind.BOOLEAN) {
                d.error(v.pos(), "'" + k + "' of the plan must be true or false, found " + v.describe());
            }
        }
    }

    /** The plan's members whose text is kept: its name, collective, protocol and those in {@link #KEPT}. */
    private static List<String> printable() {
        List<String> out = new ArrayList<>(List.of("name", "collective", "protocol"));
        out.addAll(KEPT);
        return out;
    }

    private RankPlan gpu(JsonNode g, int k, int ngpus, int[] chunks) {
        if (!Members.isObject(g, "a gpu", d)) return null;
        Members m = new Members(g, "gpu " + k, d);
        int before = d.errorCount();
        int id = m.integer("id", 0);
        if (id != Members.BAD && id != k) d.error(g.get("id").pos(), "gpu " + k + " has id " + id + "; ids must equal positions");
        chunks[0] = m.integer("input_chunks", 0);
        chunks[1] = m.integer("output_chunks", 0);
        chunks[2] = m.integer("scratch_chunks", 0);
        Map<String, List<Integer>> peers = new HashMap<>();
        List<Resources.SwitchChannel> switches = new ArrayList<>();
        for (JsonNode c : m.array("channels", true)) channel(c, k, ngpus, peers, switches);
        List<Resources.RemoteBuffer> remotes = new ArrayList<>();
        for (JsonNode rb : m.array("remote_buffers", true)) {
            if (!Members.isObject(rb, "a remote buffer", d)) continue;
            Members bm = new Members(rb, "remote buffer", d);
            int rank = bm.integer("rank", 0);
            String type = bm.string("type");
            String buf = type == null ? null : OpLowering.BUFFERS.get(type);
            if (type != null && buf == null) d.error(rb.get("type").pos(), "buffer type must be i, o or s, found '" + Text.shown(type) + "'");
            remotes.add(new Resources.RemoteBuffer(rank, buf));
        }
        List<Integer> semaphores = new ArrayList<>();
        for (JsonNode sem : m.array("semaphores", true)) {
            if (!Members.isObject(sem, "a semaphore", d)) continue;
            JsonNode init = sem.get("init_value");
            semaphores.add(init == null ? 0 : new Members(sem, "semaphore", d).integer("init_value", 0));
        }
        if (d.errorCount() > before) return null;
        Resources res = new Resources(k, peers, switches, remotes, semaphores.size(), Map.of(), Map.of());
        List<JsonNode> tbs = m.array("threadblocks", false);
        if (tbs.size() > limits.maxThreadblocksPerRank()) {
            throw new CompileException(ErrorKind.PLAN, g.get("threadblocks").pos(), "gpu " + k + " has more than "
                    + limits.maxThreadblocksPerRank() + " threadblocks (raise the limit with --limit threadblocks=N)");
        }
        List<List<OpLowering.Draft>> drafts = new ArrayList<>();
        List<Integer> channels = new ArrayList<>();
        for (int t = 0; t < tbs.size(); t++) {
            List<OpLowering.Draft> steps = new ArrayList<>();
            channels.add(threadblock(tbs.get(t), t, res, steps));
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

    private void channel(JsonNode c, int rank, int ngpus, Map<String, List<Integer>> peers,
                         List<Resources.SwitchChannel> switches) {
        if (!Members.isObject(c, "a channel", d)) return;
        Members m = new Members(c, "channel", d);
        String type = m.string("channel_type");
        if (type == null) return;
        if (type.equals("switch")) {
            String letter = m.string("buffer_type");
            String buf = letter == null ? null : OpLowering.BUFFERS.get(letter); // Map.of refuses get(null)
            List<Integer> group = List.of();
            for (JsonNode rg : m.array("rank_groups", false)) {
                if (!Members.isObject(rg, "a rank group", d)) continue;
                List<Integer> rs = new ArrayList<>();
                for (JsonNode r : new Members(rg, "rank group", d).array("ranks", false)) rs.add(m.integer(r, "ranks", 0));
                if (rs.contains(rank)) group = rs;
            }
            if (letter != null && buf == null) d.error(c.pos(), "switch channel needs a buffer_type of i, o or s");
            switches.add(new Resources.SwitchChannel(buf, group));
        } else if (type.equals("memory") || type.equals("port")) {
            for (JsonNode p : m.array("connected_to", false)) {
                int peer = m.integer(p, "connected_to", 0);
                if (peer != Members.BAD && (peer >= ngpus || peer == rank)) {
                    d.error(p.pos(), "channel of gpu " + rank + " is connected to " + peer + ", which is not another rank");
                }
                peers.computeIfAbsent(type, x -> new ArrayList<>()).add(peer);
            }
        } else {
            d.error(c.get("channel_type").pos(), "unknown channel_type '" + Text.shown(type) + "' (expected memory, port or switch)");
        }
    }

    /** Lowers a threadblock's operations into {@code drafts}; returns its own channel. */
    private int threadblock(JsonNode t, int k, Resources gpuRes, List<OpLowering.Draft> drafts) {
        if (!Members.isObject(t, "a threadblock", d)) return 0;
        Members m = new Members(t, "threadblock " + k, d);
        int id = m.integer("id", 0);
        if (id != Members.BAD && id != k) d.error(t.get("id").pos(), "threadblock " + k + " has id " + id + "; ids must equal positions");
        Map<String, List<Integer>> channels = idLists(m.array("channels", true), "channel_type", "channel_ids");
        Map<String, List<Integer>> remote = idLists(m.array("remote_buffer_refs", true), "access_channel_type", "remote_buffer_ids");
        Resources res = gpuRes.forThreadblock(channels, remote);
        OpLowering lowering = new OpLowering(res, d, drafts);
        for (JsonNode op : m.array("ops", false)) lowering.lower(op, 0);
        return firstChannelOrdinal(res, channels);
    }

    private static int firstChannelOrdinal(Resources res, Map<String, List<Integer>> channels) {
        for (String type : List.of("memory", "port")) {
            List<Integer> ids = channels.getOrDefault(type, List.of());
            if (!ids.isEmpty() && res.peer(type, ids.get(0)) >= 0) return res.connection(type, ids.get(0));
        }
        return 0;
    }

    private Map<String, List<Integer>> idLists(List<JsonNode> entries, String typeKey, String idsKey) {
        Map<String, List<Integer>> out = new HashMap<>();
        for (JsonNode e : entries) {
            if (!Members.isObject(e, "an entry of '" + idsKey + "'", d)) continue;
            Members m = new Members(e, "entry", d);
            String type = m.string(typeKey);
            List<Integer> ids = new ArrayList<>();
            for (JsonNode i : m.array(idsKey, false)) ids.add(m.integer(i, idsKey, 0));
            if (type != null) out.computeIfAbsent(type, x -> new ArrayList<>()).addAll(ids);
        }
        return out;
    }
}
