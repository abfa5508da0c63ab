package dev.nunac.sweep;

import dev.nunac.compare.PolicyComparison;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.emit.CanonicalJson;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One point's result, as its point file holds it: what the point is (plan, parameters, topology,
 * GPUs, size) and one row per policy as {@code nunac compare} computes it (the candidate chosen,
 * its NAR granularity, estimated time, UA's time by the same model, speedup, and which model
 * decided). The file is canonical JSON with nothing of the run in it (no time, host or shard), so
 * a point computed anywhere gives the same bytes.
 */
public record PointResult(String id, String plan, String file, Map<String, String> defines, String topology, int gpus,
                          int threadblocks, long sizeBytes, List<Row> rows) {
    public static final String FORMAT = "nunac-sweep-point-1";

    public record Row(String policy, String chosen, int granularity, double timeNs, double uaNs, double speedup, String model) {}

    static PointResult of(SweepSpec.Point p, List<PolicyComparison.Cell> cells) {
        List<Row> rows = new ArrayList<>();
        for (PolicyComparison.Cell c : cells) {
            rows.add(new Row(c.row(), c.chosen(), c.granularity(), c.timeNs(), c.timeNs() * c.speedupOverUa(), c.speedupOverUa(),
                    c.model()));
        }
        return new PointResult(p.id(), p.plan().name(), p.plan().file(), p.plan().defines(), p.topo().name(), p.plan().plan().ranks(),
                p.plan().plan().threadblockCount(), p.sizeBytes(), rows);
    }

    String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("id", id);
        m.put("plan", plan);
        m.put("file", file);
        m.put("defines", new TreeMap<>(defines));
        m.put("topology", topology);
        m.put("gpus", gpus);
        m.put("threadblocks", threadblocks);
        m.put("size_bytes", sizeBytes);
        List<Object> rs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("policy", r.policy());
            row.put("chosen", r.chosen());
            row.put("nar_granularity", r.granularity());
            row.put("time_ns", r.timeNs());
            row.put("ua_ns", r.uaNs());
            row.put("speedup_over_ua", r.speedup());
            row.put("model", r.model());
            rs.add(row);
        }
        m.put("rows", rs);
        return CanonicalJson.write(m);
    }

    /** Reads a point file; anything but what {@link #json} writes is an input error at its position. */
    static PointResult read(String file, byte[] bytes) {
        JsonFields o = JsonFields.root(JsonReader.parse(file, bytes, LIMITS), JsonFields.stop(ErrorKind.INPUT));
        if (!FORMAT.equals(o.string("format", true))) o.error("format", "not a sweep point file (format " + FORMAT + ")");
        Map<String, String> defines = new TreeMap<>();
        JsonFields d = o.obj("defines", true);
        for (String k : d.node().fields().keySet()) defines.put(k, d.string(k, true));
        List<Row> rows = new ArrayList<>();
        List<JNode> items = o.items("rows", true);
        for (int i = 0; i < items.size(); i++) {
            JsonFields r = o.item("rows", i, items.get(i));
            rows.add(new Row(r.string("policy", true), r.string("chosen", true), (int) num(r, "nar_granularity"), num(r, "time_ns"),
                    num(r, "ua_ns"), num(r, "speedup_over_ua"), r.string("model", true)));
        }
        return new PointResult(o.string("id", true), o.string("plan", true), o.string("file", true), defines, o.string("topology", true),
                (int) num(o, "gpus"), (int) num(o, "threadblocks"), (long) num(o, "size_bytes"), rows);
    }

    /** The bounds of a sweep's result files. */
    static final JsonLimits LIMITS = JsonLimits.DOCUMENT.of("sweep result file", JsonLimits.DOCUMENT.maxBytes());

    private static double num(JsonFields o, String k) {
        return o.number(k, true, -Double.MAX_VALUE, false);
    }
}
