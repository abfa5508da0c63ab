package dev.nunac.e2e;

import dev.nunac.diag.ErrorKind;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a workload file. Every mistake in it is one error at its {@code file:line:col} (exit 1);
 * a file that cannot be read is an input error (exit 3).
 */
public final class WorkloadReader {
    private WorkloadReader() {}

    /** Workload files are a page of JSON. */
    public static final int MAX_BYTES = 1 << 20;
    public static final int MAX_PHASES = 16;
    public static final int MAX_COLLECTIVES = 256;
    /** Phases {@code nunac e2e} knows: TTFT is prefill's time, TPOT decode's. */
    public static final List<String> PHASES = List.of("prefill", "decode");

    static final JsonLimits LIMITS = JsonLimits.DOCUMENT.of("workload file", MAX_BYTES);

    public static Workload read(Path file) {
        // not JSON: the workload's content is wrong, as a plan's would be
        JNode root = JsonReader.read(file, LIMITS, ErrorKind.PLAN);
        Path dir = file.toAbsolutePath().getParent();
        JsonFields o = JsonFields.root(root, STOP);
        o.allowOnly(Set.of("name", "description", "phases"));
        String wname = o.string("name", true);
        String desc = o.has("description") ? o.string("description", true) : "";
        JNode.JArray ps = o.array("phases", true);
        if (ps.items().isEmpty() || ps.items().size() > MAX_PHASES) {
            o.error("phases", "must hold 1 to " + MAX_PHASES + " phases, found " + ps.items().size());
        }
        List<Workload.Phase> phases = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ps.items().size(); i++) phases.add(phase(o.item("phases", i, ps.items().get(i)), dir, seen));
        return new Workload(wname, desc, List.copyOf(phases));
    }

    /** Every mistake in a workload stops the reading at it: exit 1. */
    private static final JsonFields.Report STOP = JsonFields.stop(ErrorKind.PLAN);

    static Workload.Phase phase(JsonFields o, Path dir, Set<String> seen) {
        o.allowOnly(Set.of("name", "compute_us", "compute_source", "collectives"));
        String name = o.string("name", true);
        if (!PHASES.contains(name)) o.error("name", "must be one of " + String.join(", ", PHASES) + ", found '" + name + "'");
        if (!seen.add(name)) o.error("name", "phase '" + name + "' given twice");
        double compute = o.number("compute_us", true, 0, false);
        if (compute > 1e12) o.error("compute_us", "must be 0 to 1e12 microseconds, found " + compute);
        String source = o.has("compute_source") ? o.string("compute_source", true) : "";
        JNode.JArray cs = o.array("collectives", true);
        if (cs.items().size() > MAX_COLLECTIVES) o.error("collectives", "at most " + MAX_COLLECTIVES + " collectives");
        List<Workload.Collective> colls = new ArrayList<>();
        for (int i = 0; i < cs.items().size(); i++) colls.add(collective(o.item("collectives", i, cs.items().get(i)), dir));
        return new Workload.Phase(name, compute, source, List.copyOf(colls), o.pos());
    }

    static Workload.Collective collective(JsonFields o, Path dir) {
        o.allowOnly(Set.of("plan", "defines", "bytes", "count", "note"));
        String plan = o.str("plan", true);
        Path p = dir.resolve(plan).normalize();
        if (!Files.isRegularFile(p)) o.error("plan", "no plan file '" + plan + "' (paths are relative to the workload file)");
        Map<String, String> defines = new LinkedHashMap<>();
        if (o.has("defines")) {
            JsonFields d = o.obj("defines", true);
            for (var e : d.node().fields().entrySet()) defines.put(e.getKey(), String.valueOf(d.longInt(e.getKey(), true, Long.MIN_VALUE, Long.MAX_VALUE)));
        }
        long bytes = o.longInt("bytes", true, 1, 1L << 40);
        long count = o.longInt("count", true, 0, 1_000_000);
        String note = o.has("note") ? o.string("note", true) : "";
        return new Workload.Collective(p, Map.copyOf(defines), bytes, count, note, o.pos());
    }
}
