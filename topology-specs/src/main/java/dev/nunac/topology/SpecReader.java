package dev.nunac.topology;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a positioned JSON tree into a {@link Topology}: first its structure against the schema
 * ({@link SpecSchema}), then what no schema can say: it expands the compact generators (mesh,
 * router sets, per-router groups), resolves references and checks uniqueness, coverage and
 * connectivity. All problems found are reported together; nothing is built unless the spec is
 * clean. Its typed getters still say what they expect, for a tree the schema has not seen.
 */
final class SpecReader {
    static final int FORMAT = 1;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final Pattern RANGE = Pattern.compile("(\\d{1,6})\\.\\.(\\d{1,6})");
    private static final int MAX_ITEMS = 1 << 16;
    private static final List<String> BASES = List.of("measured", "published", "derived", "assumed");

    private final Diagnostics d;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<Die> dies = new ArrayList<>();
    private final Map<String, Integer> dieIds = new HashMap<>();
    private final List<Router> routers = new ArrayList<>();
    private final Map<String, Integer> routerIds = new HashMap<>();
    private final Map<Long, Integer> routerAt = new HashMap<>();
    private final List<Link> links = new ArrayList<>();
    private final List<ComputeUnit> cus = new ArrayList<>();
    private final List<Stack> stacks = new ArrayList<>();
    private final List<Port> ports = new ArrayList<>();
    private final Map<String, Integer> portIds = new HashMap<>();
    private int meshW;
    private int meshH;

    private SpecReader(Diagnostics d) {
        this.d = d;
    }

    /** Reads a spec; throws {@code CompileException(INPUT)} listing every problem found. */
    static Topology read(JNode root, Diagnostics d) {
        return read(root, d, true);
    }

    /** As {@link #read(JNode, Diagnostics)}; {@code schema} false skips the structure check (bundled specs, checked by a test). */
    static Topology read(JNode root, Diagnostics d, boolean schema) {
        if (schema && !SpecSchema.check(root, d)) d.throwIfErrors(ErrorKind.INPUT);
        Topology t = new SpecReader(d).topology(root);
        d.throwIfErrors(ErrorKind.INPUT);
        return t;
    }

    private Topology topology(JNode rootNode) {
        JsonFields root = obj(rootNode, "$");
        if (root == null) return null;
        Integer format = root.integer("format", true, 0, Integer.MAX_VALUE);
        if (format != null && format != FORMAT) root.error("format", "unsupported format " + format + "; this nunac reads format " + FORMAT);
        String name = root.str("name", true);
        if (name != null && !NAME.matcher(name).matches()) root.error("name", "'" + name + "' must match " + NAME.pattern());
        String title = root.str("title", true);
        root.str("description", false);
        readSources(root);
        readDies(root);
        JsonFields nocObj = obj(root, "noc", true);
        int before = d.errorCount();
        Noc noc = nocObj == null ? null : readNoc(nocObj);
        // Without a sound router graph every router reference would fail too: report the cause only.
        if (d.errorCount() > before || nocObj == null) return null;
        JsonFields compute = obj(root, "compute", true);
        Dispatch dispatch = compute == null ? null : readCompute(compute);
        if (compute != null && noc != null) noc = noc.withCuInjection(q(compute, "injectionGBs", false, 0, true));
        JsonFields memObj = obj(root, "memory", true);
        Memory memory = memObj == null ? null : readMemory(memObj);
        JsonFields io = obj(root, "io", true);
        if (io != null) readIo(io);
        List<Port> planes = ports.stream().filter(p -> p.plane() >= 0).toList();
        JsonFields su = obj(root, "scaleUp", true);
        ScaleUp scaleUp = su == null ? null : readScaleUp(su, planes.size(), io == null ? null : q(io, "bandwidthGBs", false, 0, true));
        JsonFields so = obj(root, "scaleOut", false);
        ScaleOut scaleOut = so == null ? null : readScaleOut(so);
        JsonFields lat = obj(root, "latencies", true);
        Latencies latencies = null;
        if (lat != null) {
            latencies = new Latencies(q(lat, "cuToNocNs", true, 0, false), memory == null ? null : memory.latencyNs(),
                    q(lat, "linkNs", true, 0, false), q(lat, "dieToDieNs", false, 0, false));
        }
        JsonFields bud = obj(root, "budgets", true);
        Budgets budgets = bud == null ? null : readBudgets(bud);
        JsonFields nar = obj(root, "nar", true);
        int[] granularities = nar == null ? null : readNar(nar, planes.size());
        Provenance narProv = nar == null ? null : prov(nar);
        if (d.hasErrors()) return null;

        RouterGraph graph = new RouterGraph(routers, links, meshW > 0 && nocRouting == Routing.XY ? Routing.XY : nocRouting, meshW, meshH);
        if (!graph.connected()) {
            d.error(nocObj.pos(), "$.noc: the router graph is not connected; every router must reach every other");
            return null;
        }
        return new Topology(name, title, sources, dies, graph, noc, links, routers, cus, dispatch, stacks, memory, ports,
                scaleUp, scaleOut, latencies, budgets, granularities, narProv);
    }

    /** The object {@code n} at {@code path} (the schema has checked its members). */
    private JsonFields obj(JNode n, String path) {
        return JsonFields.of(n, path, JsonFields.collect(d));
    }

    private JsonFields obj(JsonFields parent, String field, boolean required) {
        JNode n = parent.get(field, required);
        return n == null ? null : obj(n, parent.at(field));
    }

    // ---- provenance ----

    private void readSources(JsonFields root) {
        JNode n = root.get("sources", true);
        if (n == null) return;
        if (!(n instanceof JNode.JObject o)) {
            root.error("sources", "must be an object of citation strings, found " + JsonFields.describe(n));
            return;
        }
        for (var e : o.fields().entrySet()) {
            if (e.getValue() instanceof JNode.JString s && !s.value().isBlank()) sources.put(e.getKey(), s.value());
            else d.error(e.getValue().pos(), "$.sources." + e.getKey() + ": must be a non-empty citation string, found " + JsonFields.describe(e.getValue()));
        }
    }

    private Quantity q(JsonFields parent, String field, boolean required, double min, boolean exclusive) {
        JsonFields o = obj(parent, field, required);
        if (o == null) return null;
        Double v = o.number("value", true, min, exclusive);
        Provenance p = prov(o);
        return v == null || p == null ? null : new Quantity(v, p.basis(), p.source(), p.note());
    }

    private Provenance prov(JsonFields o) {
        String basis = o.choice("basis", true, BASES);
        String source = o.str("source", true);
        if (source != null && !sources.containsKey(source)) {
            o.error("source", "unknown source '" + source + "' (declare it under $.sources)");
            source = null;
        }
        String note = o.str("note", false);
        if (basis == null || source == null) return null;
        return new Provenance(Basis.valueOf(basis.toUpperCase(Locale.ROOT)), source, note == null ? "" : note);
    }

    // ---- dies ----

    private void readDies(JsonFields root) {
        JNode.JArray arr = root.array("dies", true);
        if (arr == null) return;
        if (arr.items().isEmpty()) root.error("dies", "at least one die is required");
        Map<Integer, JsonFields> stacked = new LinkedHashMap<>();
        for (int i = 0; i < arr.items().size(); i++) {
            JsonFields o = obj(arr.items().get(i), root.at("dies") + "[" + i + "]");
            if (o == null) continue;
            String id = o.str("id", true);
            String kind = o.choice("kind", true, List.of("compute", "io", "base"));
            int[] at = pair(o, "at");
            if (id == null || kind == null || at == null) continue;
            if (dieIds.containsKey(id)) {
                o.error("id", "die '" + id + "' is declared twice");
                continue;
            }
            if (o.has("on")) stacked.put(dies.size(), o);
            dieIds.put(id, dies.size());
            dies.add(new Die(dies.size(), id, DieKind.valueOf(kind.toUpperCase(Locale.ROOT)), at[0], at[1], -1));
        }
        // "on" may name a die declared later, so it is resolved once all ids are known.
        for (var e : stacked.entrySet()) {
            Integer target = die(e.getValue(), "on", true);
            Die x = dies.get(e.getKey());
            if (target == null) continue;
            if (target == x.index()) e.getValue().error("on", "a die cannot sit on itself");
            else dies.set(x.index(), new Die(x.index(), x.id(), x.kind(), x.col(), x.row(), target));
        }
    }

    private int[] pair(JsonFields o, String field) {
        JNode.JArray a = o.array(field, true);
        if (a == null) return null;
        if (a.items().size() != 2) {
            o.error(field, "must be [col, row], found " + a.items().size() + " numbers");
            return null;
        }
        Integer x = o.integer(a.items().get(0), o.at(field) + "[0]", 0, 1023);
        Integer y = o.integer(a.items().get(1), o.at(field) + "[1]", 0, 1023);
        return x == null || y == null ? null : new int[] {x, y};
    }

    private Integer die(JsonFields o, String field, boolean required) {
        String id = o.str(field, required);
        if (id == null) return null;
        Integer idx = dieIds.get(id);
        if (idx == null) o.error(field, "unknown die '" + id + "'");
        return idx;
    }

    // ---- NoC ----

    private Routing nocRouting = Routing.SHORTEST;

    private Noc readNoc(JsonFields o) {
        String routing = o.choice("routing", true, List.of("xy", "shortest"));
        if (routing != null) nocRouting = Routing.valueOf(routing.toUpperCase(Locale.ROOT));
        Quantity clock = q(o, "clockMHz", true, 0, true);
        Quantity hop = q(o, "hopCycles", true, 0, false);
        Quantity bw = q(o, "linkBandwidthGBs", true, 0, true);
        boolean mesh = o.has("mesh");
        if (mesh && (o.has("routers") || o.has("links"))) {
            o.error("mesh", "give either 'mesh' or 'routers' and 'links', not both");
        } else if (mesh) {
            readMesh(obj(o, "mesh", true), hop, bw);
        } else {
            if (!o.has("routers")) d.error(o.pos(), o.path() + ": missing 'mesh' or 'routers'");
            readRouters(o, hop, bw);
        }
        if ("xy".equals(routing) && !mesh) o.error("routing", "'xy' routing needs a 'mesh'; use 'shortest' for other graphs");
        Quantity in = q(o, "routerInjectionGBs", false, 0, true);
        Quantity out = q(o, "routerEjectionGBs", false, 0, true);
        return clock == null || hop == null || bw == null ? null : new Noc(clock, hop, bw, null, in, out);
    }

    private void readMesh(JsonFields m, Quantity hop, Quantity bw) {
        if (m == null) return;
        Integer w = m.integer("width", true, 1, 1024);
        Integer h = m.integer("height", true, 1, 1024);
        JNode.JArray regions = m.array("regions", true);
        if (w == null || h == null || regions == null) return;
        if ((long) w * h > 4096) {
            m.error("width", "a " + w + "x" + h + " mesh has more than 4096 routers");
            return;
        }
        int[] owner = new int[w * h];
        java.util.Arrays.fill(owner, -1);
        for (int i = 0; i < regions.items().size(); i++) {
            JsonFields r = obj(regions.items().get(i), m.at("regions") + "[" + i + "]");
            if (r == null) continue;
            Integer die = die(r, "die", true);
            int[] xs = range(r, "x", true);
            int[] ys = range(r, "y", true);
            if (die == null || xs == null || ys == null) continue;
            for (int x : xs) {
                for (int y : ys) {
                    if (x >= w || y >= h) {
                        r.error(x >= w ? "x" : "y", "(" + x + ", " + y + ") is outside the " + w + "x" + h + " mesh");
                        return;
                    }
                    if (owner[x * h + y] >= 0) {
                        r.error("x", "router (" + x + ", " + y + ") is already in die '" + dies.get(owner[x * h + y]).id() + "'");
                        return;
                    }
                    owner[x * h + y] = die;
                }
            }
        }
        for (int i = 0; i < owner.length; i++) {
            if (owner[i] < 0) {
                m.error("regions", "router (" + i / h + ", " + i % h + ") is in no region; regions must cover the mesh");
                return;
            }
        }
        meshW = w;
        meshH = h;
        for (int x = 0; x < w; x++) {
            for (int y = 0; y < h; y++) addRouter("r" + x + "_" + y, x, y, owner[x * h + y]);
        }
        if (hop == null || bw == null) return;
        for (int x = 0; x < w; x++) {
            for (int y = 0; y < h; y++) {
                if (x + 1 < w) links.add(new Link(x * h + y, (x + 1) * h + y, hop.value(), bw.value()));
                if (y + 1 < h) links.add(new Link(x * h + y, x * h + y + 1, hop.value(), bw.value()));
            }
        }
    }

    private void addRouter(String id, int x, int y, int die) {
        int idx = routers.size();
        routers.add(new Router(idx, id, x, y, die));
        routerIds.put(id, idx);
        routerAt.put(key(x, y), idx);
    }

    private static long key(int x, int y) {
        return ((long) x << 32) | (y & 0xffffffffL);
    }

    private void readRouters(JsonFields o, Quantity hop, Quantity bw) {
        JNode.JArray arr = o.array("routers", false);
        if (arr != null) {
            for (int i = 0; i < arr.items().size(); i++) {
                JsonFields r = obj(arr.items().get(i), o.at("routers") + "[" + i + "]");
                if (r == null) continue;
                String id = r.str("id", true);
                Integer x = r.integer("x", true, 0, 1023);
                Integer y = r.integer("y", true, 0, 1023);
                Integer die = die(r, "die", true);
                if (id == null || x == null || y == null || die == null) continue;
                if (routerIds.containsKey(id)) r.error("id", "router '" + id + "' is declared twice");
                else if (routerAt.containsKey(key(x, y))) r.error("x", "two routers at (" + x + ", " + y + ")");
                else addRouter(id, x, y, die);
            }
            if (arr.items().isEmpty()) o.error("routers", "at least one router is required");
        }
        JNode.JArray ls = o.array("links", false);
        if (ls == null) return;
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < ls.items().size(); i++) {
            String p = o.at("links") + "[" + i + "]";
            JsonFields l = obj(ls.items().get(i), p);
            if (l == null) continue;
            Integer a = router(l, "from");
            Integer b = router(l, "to");
            Quantity lat = l.has("latencyCycles") ? q(l, "latencyCycles", true, 0, false) : hop;
            Quantity lbw = l.has("bandwidthGBs") ? q(l, "bandwidthGBs", true, 0, true) : bw;
            if (a == null || b == null || lat == null || lbw == null) continue;
            if (a.equals(b)) {
                l.error("to", "a link must join two different routers");
                continue;
            }
            if (!seen.add(key(Math.min(a, b), Math.max(a, b)))) {
                l.error("to", "routers '" + routers.get(a).id() + "' and '" + routers.get(b).id() + "' are already linked");
                continue;
            }
            links.add(new Link(Math.min(a, b), Math.max(a, b), lat.value(), lbw.value()));
        }
    }

    private Integer router(JsonFields o, String field) {
        String id = o.str(field, true);
        if (id == null) return null;
        Integer r = routerIds.get(id);
        if (r == null) o.error(field, "unknown router '" + id + "'");
        return r;
    }

    // ---- generators ----

    /** An integer range: {@code 3}, {@code "0..5"} (inclusive) or {@code [0, 2, 4]}. */
    private int[] range(JsonFields o, String field, boolean required) {
        JNode n = o.get(field, required);
        return n == null ? null : range(n, o.at(field));
    }

    private int[] range(JNode n, String path) {
        if (n instanceof JNode.JNumber x && x.integral()) {
            Integer v = integerIn(n, path);
            return v == null ? null : new int[] {v};
        }
        if (n instanceof JNode.JString s) {
            Matcher m = RANGE.matcher(s.value());
            if (!m.matches()) {
                d.error(n.pos(), path + ": '" + s.value() + "' is not a range like \"0..5\"");
                return null;
            }
            int a = Integer.parseInt(m.group(1));
            int b = Integer.parseInt(m.group(2));
            if (a > b || b - a >= MAX_ITEMS) {
                d.error(n.pos(), path + ": range '" + s.value() + "' is empty or too long");
                return null;
            }
            int[] r = new int[b - a + 1];
            for (int i = 0; i < r.length; i++) r[i] = a + i;
            return r;
        }
        if (n instanceof JNode.JArray a && !a.items().isEmpty()) {
            int[] r = new int[a.items().size()];
            for (int i = 0; i < r.length; i++) {
                Integer v = integerIn(a.items().get(i), path + "[" + i + "]");
                if (v == null) return null;
                r[i] = v;
            }
            return r;
        }
        d.error(n.pos(), path + ": must be an integer, a range \"a..b\" or a non-empty array of integers, found " + JsonFields.describe(n));
        return null;
    }

    private Integer integerIn(JNode n, String path) {
        if (n instanceof JNode.JNumber x && x.integral() && x.value().signum() >= 0 && x.value().compareTo(java.math.BigDecimal.valueOf(1 << 20)) <= 0) {
            return x.value().intValue();
        }
        d.error(n.pos(), path + ": must be a non-negative integer, found " + JsonFields.describe(n));
        return null;
    }

    /**
     * A set of routers, in order: an id, an array of ids, {@code {"x": R, "y": R}} (x outer, y
     * inner) or {@code {"die": id}} (by router index).
     */
    private int[] routerSet(JsonFields o, String field) {
        JNode n = o.get(field, true);
        if (n == null) return null;
        String path = o.at(field);
        List<Integer> out = new ArrayList<>();
        if (n instanceof JNode.JString s) {
            Integer r = routerIds.get(s.value());
            if (r == null) {
                d.error(n.pos(), path + ": unknown router '" + s.value() + "'");
                return null;
            }
            out.add(r);
        } else if (n instanceof JNode.JArray a) {
            boolean ok = true;
            for (int i = 0; i < a.items().size(); i++) {
                JNode it = a.items().get(i);
                Integer r = it instanceof JNode.JString s ? routerIds.get(s.value()) : null;
                if (r == null) {
                    d.error(it.pos(), path + "[" + i + "]: " + (it instanceof JNode.JString s ? "unknown router '" + s.value() + "'"
                            : "must be a router id, found " + JsonFields.describe(it)));
                    ok = false;
                } else {
                    out.add(r);
                }
            }
            if (a.items().isEmpty()) d.error(n.pos(), path + ": empty router list");
            if (!ok || a.items().isEmpty()) return null;
        } else if (n instanceof JNode.JObject) {
            JsonFields sel = obj(n, path);
            if (sel.has("die")) {
                if (sel.has("x") || sel.has("y")) sel.error("die", "select by 'die' or by 'x' and 'y', not both");
                Integer die = die(sel, "die", true);
                if (die == null) return null;
                for (Router r : routers) if (r.die() == die) out.add(r.index());
                if (out.isEmpty()) sel.error("die", "die '" + dies.get(die).id() + "' has no routers");
            } else {
                int[] xs = range(sel, "x", true);
                int[] ys = range(sel, "y", true);
                if (xs == null || ys == null) return null;
                for (int x : xs) {
                    for (int y : ys) {
                        Integer r = routerAt.get(key(x, y));
                        if (r == null) {
                            d.error(n.pos(), path + ": no router at (" + x + ", " + y + ")");
                            return null;
                        }
                        out.add(r);
                    }
                }
            }
        } else {
            d.error(n.pos(), path + ": must be a router id, an array of ids or {\"x\", \"y\"} / {\"die\"}, found " + JsonFields.describe(n));
            return null;
        }
        if (out.stream().distinct().count() != out.size()) {
            d.error(n.pos(), path + ": a router is selected more than once");
            return null;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    // ---- compute ----

    private Dispatch readCompute(JsonFields o) {
        JNode.JArray groups = o.array("groups", true);
        Map<Integer, Integer> bitOwner = new HashMap<>();
        if (groups != null) {
            for (int i = 0; i < groups.items().size(); i++) {
                JsonFields g = obj(groups.items().get(i), o.at("groups") + "[" + i + "]");
                if (g != null) readCuGroup(g, bitOwner);
            }
            if (groups.items().isEmpty()) o.error("groups", "at least one CU group is required");
        }
        JsonFields dis = obj(o, "dispatch", true);
        if (dis == null) return null;
        String rule = dis.choice("rule", true, List.of("modulo", "round-robin", "any"));
        prov(dis);
        List<Integer> ds = new ArrayList<>();
        JNode.JArray arr = dis.array("dies", "modulo".equals(rule));
        if (arr != null) {
            if ("any".equals(rule)) dis.error("dies", "rule 'any' takes no dies");
            for (int i = 0; i < arr.items().size(); i++) {
                JNode it = arr.items().get(i);
                Integer idx = it instanceof JNode.JString s ? dieIds.get(s.value()) : null;
                String p = dis.at("dies") + "[" + i + "]";
                if (idx == null) d.error(it.pos(), p + ": unknown die " + JsonFields.describe(it));
                else if (dies.get(idx).kind() != DieKind.COMPUTE) d.error(it.pos(), p + ": die '" + dies.get(idx).id() + "' is not a compute die");
                else if (ds.contains(idx)) d.error(it.pos(), p + ": die '" + dies.get(idx).id() + "' is listed twice");
                else ds.add(idx);
            }
        } else if ("round-robin".equals(rule)) {
            for (Die x : dies) if (x.kind() == DieKind.COMPUTE && cus.stream().anyMatch(c -> c.die() == x.index())) ds.add(x.index());
        }
        if (rule == null) return null;
        return new Dispatch(Dispatch.Rule.valueOf(rule.toUpperCase(Locale.ROOT).replace('-', '_')), ds);
    }

    private void readCuGroup(JsonFields g, Map<Integer, Integer> bitOwner) {
        int[] rs = routerSet(g, "routers");
        Integer per = g.integer("perRouter", true, 1, 4096);
        Integer die = g.has("die") ? die(g, "die", true) : null;
        JsonFields mb = obj(g, "maskBit", false);
        Integer start = mb == null ? null : mb.integer("start", true, 0, MAX_ITEMS * 16L);
        Integer stride = mb == null ? Integer.valueOf(1) : mb.has("stride") ? mb.integer("stride", true, 1, 4096) : Integer.valueOf(1);
        if (rs == null || per == null || (g.has("die") && die == null) || (mb != null && (start == null || stride == null))) return;
        if (cus.size() + (long) rs.length * per > MAX_ITEMS) {
            g.error("perRouter", "more than " + MAX_ITEMS + " CUs");
            return;
        }
        int first = cus.size();
        int bit0 = mb == null ? first : start;
        int j = 0;
        for (int r : rs) {
            int rd = routers.get(r).die();
            int cd = die == null ? rd : die;
            Die cdie = dies.get(cd);
            if (cdie.kind() != DieKind.COMPUTE) {
                g.error(die == null ? "routers" : "die", "CUs must be on a compute die; '" + cdie.id() + "' is " + cdie.kind().label());
                return;
            }
            if (die != null && cd != rd && cdie.on() != rd) {
                g.error("die", "die '" + cdie.id() + "' is not on die '" + dies.get(rd).id() + "' of router '" + routers.get(r).id() + "'");
                return;
            }
            for (int k = 0; k < per; k++, j++) {
                int bit = bit0 + j * stride;
                int cu = cus.size();
                Integer prev = bitOwner.putIfAbsent(bit, cu);
                if (prev != null) {
                    g.error(mb == null ? "routers" : "maskBit", "mask bit " + bit + " is used twice: CU " + prev + " and CU " + cu);
                    return;
                }
                cus.add(new ComputeUnit(cu, r, cd, bit));
            }
        }
    }

    // ---- memory and I/O ----

    private Memory readMemory(JsonFields o) {
        Quantity bw = q(o, "bandwidthGBs", true, 0, true);
        Quantity cap = q(o, "capacityGiB", true, 0, true);
        Quantity lat = q(o, "latencyNs", true, 0, false);
        JNode.JArray groups = o.array("groups", true);
        if (groups == null) return null;
        for (int i = 0; i < groups.items().size(); i++) {
            JsonFields g = obj(groups.items().get(i), o.at("groups") + "[" + i + "]");
            if (g == null) continue;
            int[] rs = routerSet(g, "routers");
            Integer per = g.integer("perRouter", true, 1, 64);
            Integer die = g.has("die") ? die(g, "die", true) : null;
            if (rs == null || per == null || bw == null || cap == null || lat == null) continue;
            for (int r : rs) {
                for (int k = 0; k < per; k++) {
                    int idx = stacks.size();
                    stacks.add(new Stack(idx, "hbm" + idx, r, die == null ? routers.get(r).die() : die, bw.value(), cap.value(), lat.value()));
                }
            }
        }
        if (groups.items().isEmpty()) o.error("groups", "at least one HBM stack group is required");
        return bw == null || cap == null || lat == null ? null : new Memory(bw, cap, lat);
    }

    private void readIo(JsonFields o) {
        Quantity bw = q(o, "bandwidthGBs", true, 0, true);
        JNode.JArray groups = o.array("groups", true);
        if (groups == null) return;
        int plane = 0;
        for (int i = 0; i < groups.items().size(); i++) {
            JsonFields g = obj(groups.items().get(i), o.at("groups") + "[" + i + "]");
            if (g == null) continue;
            int[] rs = routerSet(g, "routers");
            Integer per = g.integer("perRouter", true, 1, 1024);
            String kind = g.choice("kind", true, List.of("scale-up", "host", "nic"));
            String id = g.str("id", false);
            Integer die = g.has("die") ? die(g, "die", true) : null;
            Quantity pbw = g.has("bandwidthGBs") ? q(g, "bandwidthGBs", true, 0, true) : bw;
            if (rs == null || per == null || kind == null || pbw == null || (g.has("die") && die == null)) continue;
            if (id != null && rs.length * per != 1) {
                g.error("id", "'id' names a single port, but this group makes " + rs.length * per);
                continue;
            }
            PortKind pk = PortKind.parse(kind);
            for (int r : rs) {
                for (int k = 0; k < per; k++) {
                    int idx = ports.size();
                    String pid = id != null ? id : "p" + idx;
                    if (portIds.containsKey(pid)) {
                        g.error(id != null ? "id" : "routers", "port id '" + pid + "' is used twice");
                        return;
                    }
                    portIds.put(pid, idx);
                    ports.add(new Port(idx, pid, pk, r, die != null ? die : routers.get(r).die(), pk == PortKind.SCALE_UP ? plane++ : -1, pbw.value()));
                }
            }
        }
        if (groups.items().isEmpty()) o.error("groups", "at least one port group is required");
    }

    // ---- networks ----

    private ScaleUp readScaleUp(JsonFields o, int planes, Quantity portBw) {
        String model = o.choice("model", true, List.of("clos", "direct"));
        Provenance peersBasis = prov(o);
        if (model == null) return null;
        if (planes == 0 && !d.hasErrors()) d.error(o.pos(), o.path() + ": there are no scale-up ports (io groups of kind 'scale-up')");
        if (model.equals("clos")) {
            Integer gpus = o.has("gpus") ? o.integer("gpus", true, 2, 1 << 20) : Integer.valueOf(0);
            if (o.has("peers")) o.error("peers", "'peers' applies to model 'direct' only; under 'clos' port i is on switch plane i");
            return gpus == null ? null : new ScaleUp(ScaleUpModel.CLOS, gpus, new int[0][], portBw);
        }
        Integer gpus = o.integer("gpus", true, 2, 1024);
        JNode peers = o.get("peers", true);
        if (gpus == null || peers == null || planes == 0) return null;
        int[][] table = new int[gpus][planes];
        if (peers instanceof JNode.JString s && s.value().equals("offset")) {
            // Assumed wiring: port i of GPU g reaches g+1+(i mod (n-1)), so every peer is reached.
            for (int g = 0; g < gpus; g++) for (int i = 0; i < planes; i++) table[g][i] = (g + 1 + i % (gpus - 1)) % gpus;
        } else if (peers instanceof JNode.JArray rows) {
            String p = o.at("peers");
            if (rows.items().size() != gpus) {
                o.error("peers", "must have one row per GPU (" + gpus + "), found " + rows.items().size());
                return null;
            }
            boolean ok = true;
            for (int g = 0; g < gpus; g++) {
                JNode row = rows.items().get(g);
                if (!(row instanceof JNode.JArray ra) || ra.items().size() != planes) {
                    d.error(row.pos(), p + "[" + g + "]: must be an array of " + planes + " peers (one per scale-up port), found " + JsonFields.describe(row)
                            + (row instanceof JNode.JArray ra2 ? " of " + ra2.items().size() : ""));
                    ok = false;
                    continue;
                }
                boolean[] reached = new boolean[gpus];
                for (int i = 0; i < planes; i++) {
                    Integer v = o.integer(ra.items().get(i), p + "[" + g + "][" + i + "]", 0, gpus - 1);
                    if (v == null) {
                        ok = false;
                    } else if (v == g) {
                        d.error(ra.items().get(i).pos(), p + "[" + g + "][" + i + "]: GPU " + g + " cannot reach itself");
                        ok = false;
                    } else {
                        table[g][i] = v;
                        reached[v] = true;
                    }
                }
                for (int q = 0; q < gpus && ok; q++) {
                    if (q != g && !reached[q]) {
                        d.error(row.pos(), p + "[" + g + "]: GPU " + g + " has no port to GPU " + q);
                        ok = false;
                    }
                }
            }
            if (!ok) return null;
        } else {
            o.error("peers", "must be \"offset\" or a table (one row per GPU, one peer per scale-up port), found " + JsonFields.describe(peers));
            return null;
        }
        return new ScaleUp(ScaleUpModel.DIRECT, gpus, table, portBw, peersBasis);
    }

    private ScaleOut readScaleOut(JsonFields o) {
        Integer per = o.integer("gpusPerBox", true, 1, 1024);
        Quantity lat = q(o, "latencyNs", true, 0, false);
        Quantity bw = q(o, "bandwidthGBs", true, 0, true);
        JNode.JArray arr = o.array("nics", true);
        List<Nic> nics = new ArrayList<>();
        if (arr != null) {
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (int i = 0; i < arr.items().size(); i++) {
                JsonFields n = obj(arr.items().get(i), o.at("nics") + "[" + i + "]");
                if (n == null) continue;
                String id = n.str("id", true);
                String port = n.str("port", true);
                String dist = n.choice("distance", true, List.of("PIX", "PXB", "PHB", "SYS"));
                Integer pi = port == null ? null : portIds.get(port);
                if (port != null && pi == null) n.error("port", "unknown port '" + port + "'");
                else if (pi != null && ports.get(pi).kind() == PortKind.SCALE_UP) n.error("port", "port '" + port + "' is a scale-up port; a NIC hangs off a host or nic port");
                if (id != null && !ids.add(id)) n.error("id", "NIC '" + id + "' is declared twice");
                if (id != null && pi != null && dist != null && bw != null) nics.add(new Nic(id, pi, PcieDistance.valueOf(dist), bw.value()));
            }
        }
        return per == null || lat == null || bw == null ? null : new ScaleOut(per, nics, lat, bw);
    }

    private Budgets readBudgets(JsonFields o) {
        Quantity out = q(o, "outstandingPerCu", true, 1, false);
        Quantity bytes = q(o, "inFlightBytesPerStack", true, 0, true);
        Quantity page = q(o, "pageBytes", true, 1, false);
        Quantity slots = q(o, "threadblocksPerCu", false, 1, false);
        if (page != null) {
            long v = page.asLong();
            if (v != page.value() || Long.bitCount(v) != 1) {
                o.error("pageBytes", "page size " + JsonFields.fmt(page.value()) + " is not a power of two");
                return null;
            }
        }
        return out == null || bytes == null || page == null ? null : new Budgets(out, bytes, page, slots);
    }

    private int[] readNar(JsonFields o, int planes) {
        JNode.JArray arr = o.array("granularities", true);
        if (arr == null) return null;
        java.util.TreeSet<Integer> ks = new java.util.TreeSet<>();
        for (int i = 0; i < arr.items().size(); i++) {
            String p = o.at("granularities") + "[" + i + "]";
            Integer k = o.integer(arr.items().get(i), p, 1, 4096);
            if (k == null) continue;
            if (!ks.add(k)) d.error(arr.items().get(i).pos(), p + ": granularity " + k + " is listed twice");
            else if (planes > 0 && planes % k != 0) {
                d.error(arr.items().get(i).pos(), p + ": granularity " + k + " does not divide the " + planes + " scale-up ports");
            }
        }
        if (arr.items().isEmpty()) o.error("granularities", "at least one granularity is required (1 = baseline hashing)");
        return ks.stream().mapToInt(Integer::intValue).toArray();
    }
}
