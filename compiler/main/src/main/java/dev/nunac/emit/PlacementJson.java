package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.ir.TbNumbering;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.cost.CriticalStep;
import dev.nunac.passes.cost.LatencyStats;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.cost.Utilisation;
import dev.nunac.passes.search.Scored;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementStats;
import dev.nunac.passes.realise.Realised;
import java.util.ArrayList;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;

/**
 * placement.json: the canonical, versioned placement (schema: docs/schema/placement.schema.json).
 * The search's decision (the chosen candidate, its estimate against UA and the ideal bound,
 * every candidate's estimates); per rank the launch grid, each threadblock's CU, mask, NAR domain,
 * logical group and grid slot, the per-domain stream masks, and per buffer its layout and the
 * page → stack and page → domain maps.
 */
public final class PlacementJson {
    public static final int VERSION = 2;
    /**
     * The compact form (schema: docs/schema/placement-compact.schema.json): threadblocks as
     * columns, a mask of one CU as its bit index, page maps as runs. {@code --compact} writes it
     * for the whole plan, and every per-rank file is in it.
     */
    public static final int VERSION_COMPACT = 3;

    private PlacementJson() {}

    public static String emit(CompileResult r) {
        return emit(r, false);
    }

    /** The whole plan, in version 2 or, {@code compact}, version 3. */
    public static String emit(CompileResult r, boolean compact) {
        StringBuilder sb = new StringBuilder(compact ? 4096 : capacity(r, 210 + 8 * r.realised().maskWords(), 8));
        write(r, compact, new TextOut(sb));
        return sb.toString();
    }

    /** The same text, written to {@code out} (streamed to its file by the compile). */
    public static void write(CompileResult r, boolean compact, TextOut out) {
        Map<String, Object> root = root(r, compact ? VERSION_COMPACT : VERSION);
        root.put("ranks", ranks(r, compact));
        CanonicalJson.write(root, out);
    }

    /**
     * A little more than the characters of a whole-plan output of {@code perTb} characters per
     * threadblock and {@code perPage} per page (at most what a String holds).
     */
    static int capacity(CompileResult r, long perTb, long perPage) {
        long pages = 0;
        for (PageMap m : r.placement().pages()) pages += m.stack().length;
        long n = (1 << 16) + perTb * r.placement().cuOfTb().length + perPage * pages;
        return (int) Math.min(n, Integer.MAX_VALUE - 16);
    }

    /**
     * One rank's file of a per-rank output: version 3 with {@code part} naming the rank, and
     * {@code ranks} holding that rank alone; the rest (plan, topology, search, summary) is the
     * whole plan's, as in placement.json. {@code base} is the rank's first global threadblock.
     */
    public static String emitRank(CompileResult r, int rank, int base) {
        Map<String, Object> root = root(r, VERSION_COMPACT);
        root.put("part", obj("rank", rank));
        root.put("ranks", List.of(rank(r, r.realised().ranks().get(rank), base, true)));
        return CanonicalJson.write(root);
    }

    private static Map<String, Object> root(CompileResult r, int version) {
        Map<String, Object> root = new TreeMap<>();
        root.put("schema", "nunac-placement");
        root.put("version", version);
        Map<String, Object> plan = new TreeMap<>();
        plan.put("name", r.plan().name());
        plan.put("collective", r.plan().collective().id());
        plan.put("ranks", r.plan().ranks());
        plan.put("protocol", r.plan().protocol().id());
        plan.put("threadblocks", r.plan().threadblockCount());
        plan.put("steps", r.plan().stepCount());
        root.put("plan", plan);
        Map<String, Object> topo = new TreeMap<>();
        topo.put("name", r.topology().name());
        topo.put("cus", r.topology().cus().size());
        topo.put("stacks", r.topology().stacks().size());
        topo.put("scale_up_ports", r.topology().scaleUpPorts().size());
        topo.put("dispatch", r.realised().dispatch());
        topo.put("mask_words", r.realised().maskWords());
        root.put("topology", topo);
        Placement pl = r.placement();
        root.put("policy", pl.policy().id());
        root.put("size_bytes", r.options().sizeBytes());
        root.put("chunk_bytes", pl.chunkBytes());
        root.put("page_bytes", pl.pageBytes());
        root.put("granularity", pl.granularity());
        root.put("direct", pl.direct());
        root.put("search", search(r.search()));
        Map<String, Object> summary = new TreeMap<>();
        summary.put("chosen", stats(pl.stats()));
        summary.put("ua", stats(r.baseline().stats()));
        summary.put("logical_groups", r.groups().groups().size());
        if (r.simulated() != null) summary.put("simulated", simulated(r.simulated()));
        root.put("summary", summary);
        return root;
    }

    /** The cost model's run of the chosen placement: completion, store latencies, busiest servers, critical path. */
    private static Map<String, Object> simulated(SimResult s) {
        LatencyStats l = s.storeLatency();
        List<Object> busiest = new ArrayList<>();
        for (Utilisation u : s.utilisation().subList(0, Math.min(BUSIEST, s.utilisation().size()))) {
            busiest.add(obj("server", u.server(), "kind", u.kind(), "busy_ns", u.busyNs(), "utilisation", u.fraction()));
        }
        List<Object> path = new ArrayList<>();
        for (CriticalStep c : s.criticalPath()) {
            path.add(obj("rank", c.tb().rank(), "tb", c.tb().index(), "step", c.step(), "op", c.op(), "start_ns", c.startNs(),
                    "end_ns", c.endNs(), "after", c.cause().text()));
        }
        return obj("completion_ns", s.completionNs(),
                "store_latency", obj("flits", l.flits(), "mean_ns", l.meanNs(), "p50_ns", l.p50Ns(), "p99_ns", l.p99Ns(),
                        "max_ns", l.maxNs(), "min_ns", l.minNs()),
                "busiest", busiest, "critical_path", path);
    }

    /** Servers listed in the simulation summary, busiest first (nunac simulate --csv has them all). */
    static final int BUSIEST = 5;

    /** The decision: what was chosen, by which model, against UA and the ideal bound, and every candidate. */
    private static Map<String, Object> search(SearchResult s) {
        List<Object> cands = new ArrayList<>();
        for (Scored c : s.candidates()) {
            Map<String, Object> m = obj("id", c.candidate().id(), "policy", c.candidate().policy().id(),
                    "granularity", c.candidate().granularity(), "refined", c.candidate().refined(), "spread", c.candidate().spread(),
                    "analytic_ns", c.analyticNs());
            if (c.wasSimulated()) m.put(s.opened() ? "opened_ns" : "simulated_ns", c.simulated().ns());
            cands.add(m);
        }
        Map<String, Object> out = obj("chosen", s.chosen().candidate().id(), "model", s.modelName(), "estimate_ns", s.chosenNs(),
                "ua_ns", s.baselineNs(), "speedup_over_ua", s.speedup(), "ideal_ns", s.ideal().ns(), "ideal_limit", s.ideal().limit(),
                "fraction_of_ideal", s.fractionOfIdeal(), "worthwhile", !s.marginal(), "searched", s.searched(), "reason", s.reason(),
                "candidates", cands);
        if (s.opened()) out.put("opening_ns", s.openingNs());
        return out;
    }

    /** A JSON object from alternating keys and values (CanonicalJson sorts the keys). */
    private static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> m = new TreeMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    private static List<Object> ranks(CompileResult r, boolean compact) {
        List<Object> out = new ArrayList<>();
        TbNumbering tbs = TbNumbering.of(r.plan());
        for (Realised.RankLaunch rl : r.realised().ranks()) out.add(rank(r, rl, tbs.first(rl.rank()), compact));
        return out;
    }

    private static Map<String, Object> rank(CompileResult r, Realised.RankLaunch rl, int base, boolean compact) {
        Placement pl = r.placement();
        Map<String, Object> rm = new TreeMap<>();
        rm.put("rank", rl.rank());
        rm.put("grid", rl.grid());
        int n = rl.slotOfTb().length;
        if (compact) {
            // Columns, entry t for threadblock t: the per-threadblock objects of version 2 cost
            // more in keys and indentation than in numbers.
            int[] cu = new int[n], domain = new int[n], group = new int[n], peer = new int[n];
            List<Object> mask = new ArrayList<>(n);
            for (int t = 0; t < n; t++) {
                cu[t] = pl.cuOfTb()[base + t];
                domain[t] = pl.domainOfTb()[base + t];
                group[t] = pl.groupOfTb()[base + t];
                peer[t] = r.accesses().threadblocks().get(base + t).peer();
                mask.add(mask(rl.tbMasks().get(t)));
            }
            // No slot column: threadblock t's slot is its position in the grid.
            rm.put("threadblocks", obj("count", n, "cu", column(cu), "mask", mask.stream().distinct().count() == 1 && n > 1 ? mask.get(0) : mask,
                    "domain", column(domain), "group", column(group), "peer", column(peer)));
        } else {
            rm.put("threadblocks", (CanonicalJson.Fragment) (sb, indent) -> threadblocks(sb, indent, r, rl, base));
        }
        List<Object> streams = new ArrayList<>();
        for (Realised.StreamMask s : rl.streams()) {
            Map<String, Object> sm = new TreeMap<>();
            sm.put("domain", s.domain());
            sm.put("mask", compact ? mask(s.mask()) : Realised.hex(s.mask()));
            sm.put("cus", s.cus());
            sm.put("added_for_empty_dies", s.addedForEmptyDies());
            streams.add(sm);
        }
        rm.put("streams", streams);
        List<Object> bufs = new ArrayList<>();
        for (PageMap pm : pl.pages()) {
            if (pm.rank() != rl.rank() || pm.stack().length == 0) continue;
            Map<String, Object> bm = new TreeMap<>();
            bm.put("buffer", pm.buffer());
            bm.put("pages", pm.stack().length);
            if (compact) {
                int sp = PageRuns.period(pm.stack()), dp = PageRuns.period(pm.domain());
                bm.put("stack_runs", PageRuns.encode(pm.stack(), sp));
                if (sp < pm.stack().length) bm.put("stack_period", sp);
                bm.put("domain_runs", PageRuns.encode(pm.domain(), dp));
                if (dp < pm.domain().length) bm.put("domain_period", dp);
            } else {
                bm.put("stack", pm.stack());
                bm.put("domain", pm.domain());
            }
            bm.put("layout", pm.layout().id());
            if (pm.slot() != null) bm.put("slots", pm.slot());
            bufs.add(bm);
        }
        rm.put("buffers", bufs);
        return rm;
    }

    /**
     * Version 2's threadblocks: a list of one object per threadblock, keys in order (cu, domain,
     * group, mask, peer, slot, tb), written as {@link CanonicalJson} writes such a list of maps.
     */
    private static void threadblocks(TextOut sb, int indent, CompileResult r, Realised.RankLaunch rl, int base) {
        Placement pl = r.placement();
        int n = rl.slotOfTb().length;
        if (n == 0) {
            sb.append("[]");
            return;
        }
        sb.append("[\n");
        for (int t = 0; t < n; t++) {
            TbAccess a = r.accesses().threadblocks().get(base + t);
            CanonicalJson.pad(sb, indent + 1);
            sb.ascii("{\n");
            key(sb, indent + 2, "\"cu\": ").append(pl.cuOfTb()[base + t]).ascii(",\n");
            key(sb, indent + 2, "\"domain\": ").append(pl.domainOfTb()[base + t]).ascii(",\n");
            key(sb, indent + 2, "\"group\": ").append(pl.groupOfTb()[base + t]).ascii(",\n");
            key(sb, indent + 2, "\"mask\": ");
            hex(sb, rl.tbMasks().get(t));
            sb.ascii(",\n");
            key(sb, indent + 2, "\"peer\": ").append(a.peer()).ascii(",\n");
            key(sb, indent + 2, "\"slot\": ").append(rl.slotOfTb()[t]).ascii(",\n");
            key(sb, indent + 2, "\"tb\": ").append(t).append('\n');
            CanonicalJson.pad(sb, indent + 1);
            sb.ascii(t + 1 < n ? "},\n" : "}\n");
        }
        CanonicalJson.pad(sb, indent);
        sb.append(']');
    }

    /**
     * {@code "0x..."}: the mask as {@link Realised#hex} spells it, most significant word first,
     * written without a String per threadblock.
     */
    private static void hex(TextOut sb, int[] words) {
        sb.ascii("\"0x");
        for (int i = words.length - 1; i >= 0; i--) sb.hex8(words[i]);
        sb.append('"');
    }

    /** {@code quoted} is the key as written, {@code "cu": }. */
    private static TextOut key(TextOut sb, int indent, String quoted) {
        CanonicalJson.pad(sb, indent);
        return sb.ascii(quoted);
    }

    /** A compact column: one number when every threadblock has the same value (and there are several), else the values. */
    private static Object column(int[] values) {
        for (int v : values) if (v != values[0]) return values;
        return values.length > 1 ? (Object) values[0] : values;
    }

    /** A compact mask: the bit index when one CU is set, else the hex number of version 2. */
    private static Object mask(int[] words) {
        int bit = PageRuns.singleBit(words);
        return bit >= 0 ? (Object) bit : Realised.hex(words);
    }

    static Map<String, Object> stats(PlacementStats s) {
        Map<String, Object> m = new TreeMap<>();
        m.put("mean_cu_port_hops", s.meanCuPortHops());
        m.put("max_cu_port_hops", s.maxCuPortHops());
        m.put("mean_stack_port_hops", s.meanStackPortHops());
        m.put("max_stack_port_hops", s.maxStackPortHops());
        m.put("cu_spills", s.cuSpills());
        m.put("cu_overflows", s.cuOverflows());
        m.put("stack_spills", s.stackSpills());
        m.put("stack_overflows", s.stackOverflows());
        m.put("page_conflicts", s.pageConflicts());
        m.put("pages_untouched", s.pagesUntouched());
        m.put("max_cu_load", s.maxCuLoad());
        m.put("max_stack_load", s.maxStackLoad());
        return m;
    }
}
