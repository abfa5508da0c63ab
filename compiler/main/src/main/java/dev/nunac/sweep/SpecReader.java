package dev.nunac.sweep;

import dev.nunac.driver.ByteSizes;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.TopologyLoader;
import dev.nunac.topology.TopologyResolver;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a sweep spec (docs/sweep.md, docs/schema/sweep.schema.json): a JSON object naming
 * plans with their parameter sets, GPU counts, topologies, sizes, policies and the NAR setting.
 * Plan and topology files are found beside the spec. Every plan and topology is loaded here, so
 * a bad one stops the sweep before its first point. A mistake in the spec is one error at its
 * {@code file:line:col}, exit 1.
 */
public final class SpecReader {
    static final Set<String> FIELDS = Set.of("$schema", "description", "plans", "gpus", "topologies", "sizes", "policies", "nar", "layout", "timing");
    static final Set<String> PLAN_FIELDS = Set.of("plan", "name", "defines");
    /** Point ids are file names: kept short and to characters every file system takes. */
    static final int MAX_ID = 200;

    private final Path dir;

    private SpecReader(Path spec) {
        Path parent = spec.toAbsolutePath().getParent();
        this.dir = parent == null ? Path.of(".") : parent;
    }

    /** The bounds of a sweep spec. */
    static final JsonLimits LIMITS = JsonLimits.DOCUMENT.of("sweep spec", JsonLimits.DOCUMENT.maxBytes());

    public static SweepSpec read(Path spec) {
        // malformed JSON is a mistake in the spec, like any other: exit 1
        return new SpecReader(spec).spec(JsonReader.read(spec, LIMITS, ErrorKind.PLAN));
    }

    private SweepSpec spec(JNode root) {
        JsonFields root0 = JsonFields.root(root, JsonFields.stop(ErrorKind.PLAN));
        root0.allowOnly(FIELDS);
        for (String f : List.of("plans", "topologies", "sizes")) root0.get(f, true);
        JNode.JObject o = root0.node();
        JNode description = o.fields().get("description");
        if (description != null && !(description instanceof JNode.JString)) throw expected(description, "$.description", "a string");
        int nar = nar(o.fields().get("nar"));
        boolean packed = layout(o.fields().get("layout"));
        boolean simulated = timing(o.fields().get("timing"));
        JNode.JArray plans = array(o.fields().get("plans"), "$.plans");
        List<Integer> gpus = gpus(o.fields().get("gpus"));
        List<SweepSpec.TopoCase> topos = topologies(array(o.fields().get("topologies"), "$.topologies"));
        Map<Long, String> sizes = sizes(array(o.fields().get("sizes"), "$.sizes"));
        List<String> rows = policies(o.fields().get("policies"));
        List<SweepSpec.Point> points = new ArrayList<>();
        Map<String, SourcePos> ids = new HashMap<>();
        for (int i = 0; i < plans.items().size(); i++) {
            JNode entry = plans.items().get(i);
            for (SweepSpec.PlanCase c : cases(entry, "$.plans[" + i + "]", gpus)) {
                for (SweepSpec.TopoCase t : topos) {
                    for (Map.Entry<Long, String> s : sizes.entrySet()) {
                        String id = c.key() + "." + t.name() + "." + s.getValue();
                        if (id.length() > MAX_ID) throw error(entry.pos(), "point id " + id.substring(0, 40) + "... is longer than " + MAX_ID
                                + " characters: give the plan a shorter \"name\"");
                        // ids name files: two that differ only in case would be one file on some file systems
                        SourcePos before = ids.putIfAbsent(id.toLowerCase(Locale.ROOT), entry.pos());
                        if (before != null) {
                            throw error(entry.pos(), "$.plans[" + i + "]: point " + id + " is already in the sweep (from " + before
                                    + "): give the plan another \"name\"");
                        }
                        points.add(new SweepSpec.Point(id, c, t, s.getKey()));
                    }
                }
            }
        }
        return new SweepSpec(points, rows, nar, packed, sizes.keySet().iterator().next(), simulated);
    }

    /** A plan entry's cases: one per parameter set and GPU count, each loaded. */
    private List<SweepSpec.PlanCase> cases(JNode entry, String path, List<Integer> gpus) {
        JNode planNode;
        JNode nameNode = null;
        JNode definesNode = null;
        if (entry instanceof JNode.JString) {
            planNode = entry;
        } else {
            JsonFields f = object(entry, path, "a plan file name or an object with \"plan\"");
            f.allowOnly(PLAN_FIELDS);
            JNode.JObject e = f.node();
            planNode = f.get("plan", true);
            nameNode = e.fields().get("name");
            definesNode = e.fields().get("defines");
        }
        String planFile = string(planNode, path + (entry == planNode ? "" : ".plan"));
        Path resolved = dir.resolve(planFile);
        if (!Files.isRegularFile(resolved)) throw error(planNode.pos(), path + ": no such plan file: " + resolved);
        String label = name(nameNode == null ? planNode : nameNode, nameNode == null ? stem(planFile) : string(nameNode, path + ".name"),
                path + ".name");
        List<Map<String, String>> sets = defineSets(definesNode, path + ".defines", !gpus.isEmpty());
        List<SweepSpec.PlanCase> out = new ArrayList<>();
        for (Map<String, String> set : sets) {
            StringBuilder id = new StringBuilder(label);
            for (Map.Entry<String, String> d : set.entrySet()) id.append('.').append(d.getKey()).append('=').append(d.getValue());
            for (Integer g : gpus.isEmpty() ? java.util.Collections.<Integer>singletonList(null) : gpus) {
                Map<String, String> defines = new TreeMap<>(set);
                String caseId = id.toString();
                if (g != null) {
                    defines.put("ranks", String.valueOf(g));
                    caseId += ".g" + g;
                }
                out.add(new SweepSpec.PlanCase(label, caseId, planFile, defines, load(resolved, defines,
                        definesNode != null ? definesNode.pos() : planNode.pos(), path)));
            }
        }
        return out;
    }

    /**
     * Loads a plan at a parameter set. A parameter the plan refuses (unknown, or not a value it
     * takes) is the spec's mistake, and is reported at the spec's "defines".
     */
    private static dev.nunac.ir.Plan load(Path plan, Map<String, String> defines, SourcePos at, String path) {
        try {
            return PlanLoader.load(plan, defines, Limits.DEFAULT);
        } catch (CompileException e) {
            if (e.kind() != ErrorKind.USAGE) throw e;
            String m = e.diagnostics().get(0).message();
            throw error(at, path + ".defines: " + (m.startsWith("-D ") ? m.substring(3) : m));
        }
    }

    /** No "defines": one empty set; an object: one set; an array of objects: one set each. */
    private List<Map<String, String>> defineSets(JNode n, String path, boolean gpus) {
        if (n == null) return List.of(new TreeMap<>());
        List<Map<String, String>> out = new ArrayList<>();
        if (n instanceof JNode.JArray a) {
            if (a.items().isEmpty()) throw error(a.pos(), path + ": no parameter set given (leave \"defines\" out for none)");
            for (int i = 0; i < a.items().size(); i++) {
                Map<String, String> set = defineSet(a.items().get(i), path + "[" + i + "]", gpus);
                if (out.contains(set)) throw error(a.items().get(i).pos(), path + "[" + i + "]: the same parameter set is given twice");
                out.add(set);
            }
            return out;
        }
        out.add(defineSet(n, path, gpus));
        return out;
    }

    private Map<String, String> defineSet(JNode n, String path, boolean gpus) {
        JNode.JObject o = object(n, path, "an object of parameter values, or an array of them").node();
        Map<String, String> set = new TreeMap<>();
        for (Map.Entry<String, JNode> e : o.fields().entrySet()) {
            String k = e.getKey();
            SourcePos at = o.keyPos().get(k);
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) throw error(at, path + ": '" + k + "' is not a parameter name");
            if (gpus && k.equals("ranks")) throw error(at, path + ": \"ranks\" is set by \"gpus\"; give one or the other");
            JNode v = e.getValue();
            if (v instanceof JNode.JNumber num && num.integral() && num.value().signum() >= 0) set.put(k, num.value().toBigInteger().toString());
            else if (v instanceof JNode.JBool b) set.put(k, String.valueOf(b.value()));
            else throw expected(v, path + "." + k, "a non-negative integer or a boolean");
        }
        return set;
    }

    private List<Integer> gpus(JNode n) {
        if (n == null) return List.of();
        JNode.JArray a = array(n, "$.gpus");
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < a.items().size(); i++) {
            JNode v = a.items().get(i);
            if (!(v instanceof JNode.JNumber num && num.integral() && num.value().signum() > 0 && num.value().compareTo(java.math.BigDecimal.valueOf(1 << 20)) <= 0)) {
                throw expected(v, "$.gpus[" + i + "]", "a positive integer");
            }
            int g = num.value().intValueExact();
            if (out.contains(g)) throw error(v.pos(), "$.gpus[" + i + "]: " + g + " is given twice");
            out.add(g);
        }
        return out;
    }

    private List<SweepSpec.TopoCase> topologies(JNode.JArray a) {
        List<SweepSpec.TopoCase> out = new ArrayList<>();
        for (int i = 0; i < a.items().size(); i++) {
            JNode v = a.items().get(i);
            String t = string(v, "$.topologies[" + i + "]");
            Path beside = dir.resolve(t);
            SweepSpec.TopoCase c;
            if (Files.isRegularFile(beside)) {
                c = new SweepSpec.TopoCase(name(v, stem(t), "$.topologies[" + i + "]"), TopologyLoader.load(beside));
            } else if (TopologyResolver.bundledNames().contains(t.endsWith(".json") ? t.substring(0, t.length() - 5) : t)) {
                c = new SweepSpec.TopoCase(stem(t), TopologyResolver.resolve(t));
            } else {
                throw error(v.pos(), "$.topologies[" + i + "]: '" + t + "' is neither a file beside the spec nor a bundled topology (bundled: "
                        + String.join(", ", TopologyResolver.bundledNames()) + ")");
            }
            for (SweepSpec.TopoCase b : out) {
                if (b.name().equalsIgnoreCase(c.name())) throw error(v.pos(), "$.topologies[" + i + "]: topology " + c.name() + " is given twice");
            }
            out.add(c);
        }
        return out;
    }

    /** Sizes by bytes, in spec order, each labelled in the canonical units (1MB, 100KB, 1048576B). */
    private Map<Long, String> sizes(JNode.JArray a) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (int i = 0; i < a.items().size(); i++) {
            JNode v = a.items().get(i);
            long bytes;
            if (v instanceof JNode.JString s) {
                try {
                    bytes = ByteSizes.parse(s.value(), "$.sizes[" + i + "]");
                } catch (RuntimeException e) {
                    throw error(v.pos(), e.getMessage());
                }
            } else if (v instanceof JNode.JNumber num && num.integral() && num.value().signum() > 0 && num.value().compareTo(java.math.BigDecimal.valueOf(1e15)) <= 0) {
                bytes = num.value().longValueExact();
            } else {
                throw expected(v, "$.sizes[" + i + "]", "a size such as \"100KB\", \"1MiB\" or a number of bytes");
            }
            if (out.putIfAbsent(bytes, ByteSizes.format(bytes)) != null) {
                throw error(v.pos(), "$.sizes[" + i + "]: " + ByteSizes.format(bytes) + " is given twice");
            }
        }
        return out;
    }

    /** The rows: {@code auto} (the default search) and policy ids; by default auto and every policy. */
    private List<String> policies(JNode n) {
        List<String> out = new ArrayList<>();
        if (n == null) {
            out.add("auto");
            for (Policy p : Policy.values()) out.add(p.id());
            return out;
        }
        JNode.JArray a = array(n, "$.policies");
        for (int i = 0; i < a.items().size(); i++) {
            JNode v = a.items().get(i);
            String where = "$.policies[" + i + "]";
            String s = string(v, where).trim();
            String id = s.equals("auto") ? s : Policy.parse(s).map(Policy::id).orElseThrow(() -> error(v.pos(), where
                    + ": unknown policy '" + s + "' (known: auto, " + Policy.ids() + ")"));
            if (out.contains(id)) throw error(v.pos(), "$.policies[" + i + "]: " + id + " is given twice");
            out.add(id);
        }
        return out;
    }

    private int nar(JNode n) {
        if (n == null) return PlacementOptions.NAR_AUTO;
        if (n instanceof JNode.JString s && s.value().equals("auto")) return PlacementOptions.NAR_AUTO;
        if (n instanceof JNode.JString s && s.value().equals("off")) return PlacementOptions.NAR_OFF;
        if (n instanceof JNode.JNumber num && num.integral() && num.value().signum() > 0 && num.value().compareTo(java.math.BigDecimal.valueOf(1 << 20)) <= 0) {
            return num.value().intValueExact();
        }
        throw expected(n, "$.nar", "\"auto\", \"off\" or a positive granularity");
    }

    /** "natural" (the default: the collective's buffers keep the caller's layout) or "packed", as --layout. */
    private boolean layout(JNode n) {
        if (n == null) return false;
        if (n instanceof JNode.JString s && (s.value().equals("natural") || s.value().equals("packed"))) return s.value().equals("packed");
        throw expected(n, "$.layout", "\"natural\" or \"packed\"");
    }

    /**
     * "search" (the default: each row timed by the model its search decided with, as compare
     * reports it) or "simulation" (every row's choice and UA simulated).
     */
    private boolean timing(JNode n) {
        if (n == null) return false;
        if (n instanceof JNode.JString s && (s.value().equals("search") || s.value().equals("simulation"))) return s.value().equals("simulation");
        throw expected(n, "$.timing", "\"search\" or \"simulation\"");
    }

    /** A label made of the characters a point id may hold; the spec's own text where it has no others. */
    private String name(JNode at, String text, String path) {
        if (text.isEmpty()) throw error(at.pos(), path + ": an empty name");
        if (!text.matches("[A-Za-z0-9_+=-][A-Za-z0-9._+=-]*")) {
            throw error(at.pos(), path + ": '" + text + "' cannot name a point file: use letters, digits and . _ + = - (give a \"name\")");
        }
        return text;
    }

    static String stem(String file) {
        String base = file.substring(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
        int dot = base.lastIndexOf('.');
        return dot > 0 ? base.substring(0, dot) : base;
    }

    private JsonFields object(JNode n, String path, String what) {
        if (n instanceof JNode.JObject o) return JsonFields.of(o, path, JsonFields.stop(ErrorKind.PLAN));
        throw expected(n, path, what);
    }

    private JNode.JArray array(JNode n, String path) {
        if (!(n instanceof JNode.JArray a)) throw expected(n, path, "an array");
        if (a.items().isEmpty()) throw error(a.pos(), path + ": an empty list (give at least one)");
        return a;
    }

    private String string(JNode n, String path) {
        if (n instanceof JNode.JString s && !s.value().isBlank()) return s.value();
        throw expected(n, path, "a non-empty string");
    }

    private CompileException expected(JNode n, String path, String what) {
        String got = n instanceof JNode.JString s && s.value().isBlank() ? "an empty string" : JsonFields.describe(n);
        return error(n.pos(), path + ": must be " + what + ", found " + got);
    }

    private static CompileException error(SourcePos at, String message) {
        return new CompileException(ErrorKind.PLAN, at, message);
    }
}
