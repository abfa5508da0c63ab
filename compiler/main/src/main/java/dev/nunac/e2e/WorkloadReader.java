package dev.nunac.e2e;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.topology.json.JNode;
import dev.nunac.topology.json.JsonTree;
import java.io.IOException;
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

    public static Workload read(Path file) {
        String name = file.toString();
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new CompileException(ErrorKind.PLAN, SourcePos.of(name), "workload file is larger than " + MAX_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot read workload file: " + e.getMessage());
        }
        JNode root;
        try {
            root = JsonTree.parse(name, bytes);
        } catch (CompileException e) {
            // not JSON: the workload's content is wrong, as a plan's would be
            throw new CompileException(ErrorKind.PLAN, e.diagnostics().get(0).pos(), e.diagnostics().get(0).message());
        }
        Path dir = file.toAbsolutePath().getParent();
        JNode.JObject o = object(root, "workload", Set.of("name", "description", "phases"));
        String wname = string(need(o, "name", "workload"), "workload.name");
        String desc = o.fields().containsKey("description") ? string(o.fields().get("description"), "workload.description") : "";
        JNode.JArray ps = array(need(o, "phases", "workload"), "workload.phases");
        if (ps.items().isEmpty() || ps.items().size() > MAX_PHASES) {
            throw err(ps.pos(), "workload.phases: expected 1 to " + MAX_PHASES + " phases, found " + ps.items().size());
        }
        List<Workload.Phase> phases = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ps.items().size(); i++) phases.add(phase(ps.items().get(i), "workload.phases[" + i + "]", dir, seen));
        return new Workload(wname, desc, List.copyOf(phases));
    }

    static Workload.Phase phase(JNode n, String path, Path dir, Set<String> seen) {
        JNode.JObject o = object(n, path, Set.of("name", "compute_us", "compute_source", "collectives"));
        JNode nameNode = need(o, "name", path);
        String name = string(nameNode, path + ".name");
        if (!PHASES.contains(name)) throw err(nameNode.pos(), path + ".name: expected one of " + String.join(", ", PHASES) + ", got '" + name + "'");
        if (!seen.add(name)) throw err(nameNode.pos(), path + ".name: phase '" + name + "' given twice");
        JNode cn = need(o, "compute_us", path);
        double compute = number(cn, path + ".compute_us");
        if (!(compute >= 0) || compute > 1e12) throw err(cn.pos(), path + ".compute_us: expected 0 to 1e12 microseconds, got " + compute);
        String source = o.fields().containsKey("compute_source") ? string(o.fields().get("compute_source"), path + ".compute_source") : "";
        JNode.JArray cs = array(need(o, "collectives", path), path + ".collectives");
        if (cs.items().size() > MAX_COLLECTIVES) throw err(cs.pos(), path + ".collectives: at most " + MAX_COLLECTIVES + " collectives");
        List<Workload.Collective> colls = new ArrayList<>();
        for (int i = 0; i < cs.items().size(); i++) colls.add(collective(cs.items().get(i), path + ".collectives[" + i + "]", dir));
        return new Workload.Phase(name, compute, source, List.copyOf(colls), o.pos());
    }

    static Workload.Collective collective(JNode n, String path, Path dir) {
        JNode.JObject o = object(n, path, Set.of("plan", "defines", "bytes", "count", "note"));
        JNode pn = need(o, "plan", path);
        String plan = string(pn, path + ".plan");
        if (plan.isBlank()) throw err(pn.pos(), path + ".plan: empty");
        Path p = dir.resolve(plan).normalize();
        if (!Files.isRegularFile(p)) throw err(pn.pos(), path + ".plan: no plan file '" + plan + "' (paths are relative to the workload file)");
        Map<String, String> defines = new LinkedHashMap<>();
        if (o.fields().containsKey("defines")) {
            JNode.JObject d = object(o.fields().get("defines"), path + ".defines", null);
            for (var e : d.fields().entrySet()) {
                if (!(e.getValue() instanceof JNode.JNumber num) || !num.integral()) {
                    throw err(e.getValue().pos(), path + ".defines." + e.getKey() + ": expected an integer, found " + e.getValue().typeName());
                }
                defines.put(e.getKey(), num.value().toBigInteger().toString());
            }
        }
        JNode bn = need(o, "bytes", path);
        long bytes = integer(bn, path + ".bytes", 1, 1L << 40);
        JNode kn = need(o, "count", path);
        long count = integer(kn, path + ".count", 0, 1_000_000);
        String note = o.fields().containsKey("note") ? string(o.fields().get("note"), path + ".note") : "";
        return new Workload.Collective(p, Map.copyOf(defines), bytes, count, note, o.pos());
    }

    static JNode.JObject object(JNode n, String path, Set<String> allowed) {
        if (!(n instanceof JNode.JObject o)) throw err(n.pos(), path + ": expected an object, found " + n.typeName());
        if (allowed != null) {
            for (var k : o.fields().keySet()) {
                if (!allowed.contains(k)) {
                    throw err(o.keyPos().get(k), path + ": unknown field '" + k + "' (allowed: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
                }
            }
        }
        return o;
    }

    static JNode need(JNode.JObject o, String field, String path) {
        JNode n = o.fields().get(field);
        if (n == null) throw err(o.pos(), path + ": missing field '" + field + "'");
        return n;
    }

    static String string(JNode n, String path) {
        if (!(n instanceof JNode.JString s)) throw err(n.pos(), path + ": expected a string, found " + n.typeName());
        return s.value();
    }

    static JNode.JArray array(JNode n, String path) {
        if (!(n instanceof JNode.JArray a)) throw err(n.pos(), path + ": expected an array, found " + n.typeName());
        return a;
    }

    static double number(JNode n, String path) {
        if (!(n instanceof JNode.JNumber num)) throw err(n.pos(), path + ": expected a number, found " + n.typeName());
        return num.value().doubleValue();
    }

    static long integer(JNode n, String path, long min, long max) {
        if (!(n instanceof JNode.JNumber num) || !num.integral()) throw err(n.pos(), path + ": expected an integer, found " + n.typeName());
        java.math.BigInteger v = num.value().toBigInteger();
        if (v.compareTo(java.math.BigInteger.valueOf(min)) < 0 || v.compareTo(java.math.BigInteger.valueOf(max)) > 0) {
            throw err(n.pos(), path + ": expected " + min + " to " + max + ", got " + v);
        }
        return v.longValue();
    }

    static CompileException err(SourcePos pos, String message) {
        return new CompileException(ErrorKind.PLAN, pos, message);
    }
}
