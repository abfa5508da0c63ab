package dev.nunac.sweep;

import dev.nunac.compare.PolicyComparison;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.emit.CanonicalJson;
import dev.nunac.topology.json.JNode;
import dev.nunac.topology.json.JsonTree;
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
                    c.simulated() ? "simulation" : "analytic"));
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
        Fields o = new Fields(file, JsonTree.parse(file, bytes), "");
        if (!FORMAT.equals(o.string("format"))) throw o.error("format", "not a sweep point file (format " + FORMAT + ")");
        Map<String, String> defines = new TreeMap<>();
        Fields d = o.object("defines");
        for (String k : d.o.fields().keySet()) defines.put(k, d.string(k));
        List<Row> rows = new ArrayList<>();
        for (Fields r : o.objects("rows")) {
            rows.add(new Row(r.string("policy"), r.string("chosen"), (int) r.number("nar_granularity"), r.number("time_ns"),
                    r.number("ua_ns"), r.number("speedup_over_ua"), r.string("model")));
        }
        return new PointResult(o.string("id"), o.string("plan"), o.string("file"), defines, o.string("topology"), (int) o.number("gpus"),
                (int) o.number("threadblocks"), (long) o.number("size_bytes"), rows);
    }

    /** The fields of one object of a point file, each read as the type it must be. */
    private record Fields(String file, JNode.JObject o, String path) {
        Fields(String file, JNode n, String path) {
            this(file, n instanceof JNode.JObject obj ? obj : null, path);
            if (o == null) throw new CompileException(ErrorKind.INPUT, n.pos(), (path.isEmpty() ? "a sweep point file" : path) + ": expected an object");
        }

        JNode get(String k) {
            JNode n = o.fields().get(k);
            if (n == null) throw new CompileException(ErrorKind.INPUT, o.pos(), path + k + ": missing from the sweep point file");
            return n;
        }

        String string(String k) {
            if (get(k) instanceof JNode.JString s) return s.value();
            throw error(k, "expected a string");
        }

        double number(String k) {
            if (get(k) instanceof JNode.JNumber n) return n.value().doubleValue();
            throw error(k, "expected a number");
        }

        Fields object(String k) {
            return new Fields(file, get(k), path + k + ".");
        }

        List<Fields> objects(String k) {
            if (!(get(k) instanceof JNode.JArray a)) throw error(k, "expected an array");
            List<Fields> out = new ArrayList<>();
            for (int i = 0; i < a.items().size(); i++) out.add(new Fields(file, a.items().get(i), path + k + "[" + i + "]."));
            return out;
        }

        CompileException error(String k, String why) {
            JNode n = o.fields().get(k);
            return new CompileException(ErrorKind.INPUT, n == null ? o.pos() : n.pos(), path + k + ": " + why);
        }
    }
}
