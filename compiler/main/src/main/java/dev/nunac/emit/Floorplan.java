package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.ir.TbNumbering;
import dev.nunac.passes.place.PageMap;
import dev.nunac.topology.ComputeUnit;
import dev.nunac.topology.Die;
import dev.nunac.topology.Port;
import dev.nunac.topology.Router;
import dev.nunac.topology.Stack;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The floorplan picture (--emit svg): the chip's routers at their mesh positions with their CUs,
 * HBM stacks and I/O ports drawn at the nearest outer edge, dies outlined, ports labelled with
 * their id and the peer GPU (direct) or plane they reach. For one rank (0 unless chosen):
 * CUs coloured by the NAR domain of the threadblocks placed on them and shaded by how many
 * there are, stacks shaded by the pages they hold, ports coloured by their NAR domain. A title
 * names plan, topology, policy and granularity; a legend explains the colours.
 */
public final class Floorplan {
    private Floorplan() {}

    static final double CU = 11, GAP = 2, PAD = 8, EDGE = 26, TITLE = 44, LEGEND = 64;
    /** Room beside the edges for the port labels. */
    static final double LABEL_W = 64, LABEL_H = 10;
    /** Wider than this, side-by-side panels are stacked instead, so the picture fits a screen. */
    static final double SCREEN_W = 1600;

    /** One placement's picture. */
    public static String render(CompileResult r) {
        return render(r, 0);
    }

    /** One placement's picture, showing {@code rank}. */
    public static String render(CompileResult r, int rank) {
        return sideBySide(List.of(r), null, rank);
    }

    /** Several placements of one plan side by side, e.g. UA and NAP+NAR. */
    public static String sideBySide(List<CompileResult> results) {
        return sideBySide(results, null, 0);
    }

    /**
     * Side by side, with rank 0's port utilisation from the cost model ({@code portUtil.get(i)}:
     * port id → busy fraction, for result i; null where no simulation ran): ports are then
     * shaded by utilisation instead of drawn at full colour.
     */
    public static String sideBySide(List<CompileResult> results, List<Map<String, Double>> portUtil) {
        return sideBySide(results, portUtil, 0);
    }

    /** As {@link #sideBySide(List, List)}, showing {@code rank} (port utilisation, if given, is that rank's). */
    public static String sideBySide(List<CompileResult> results, List<Map<String, Double>> portUtil, int rank) {
        Topology topo = results.get(0).topology();
        int ranks = results.get(0).plan().ranks();
        if (rank < 0 || rank >= ranks) {
            throw new IllegalArgumentException("rank " + rank + " is out of range: the plan has " + ranks + " ranks (0.." + (ranks - 1) + ")");
        }
        Layout l = new Layout(topo);
        double panelW = l.width + 2 * (EDGE + PAD + LABEL_W), panelH = l.height + 2 * (EDGE + LABEL_H) + TITLE;
        // side by side while that fits a screen, else one above the other
        boolean stacked = results.size() > 1 && panelW * results.size() > SCREEN_W;
        double w = stacked ? panelW : panelW * results.size(), h = stacked ? panelH * results.size() : panelH;
        // wide enough for the legend's longest line
        Svg svg = new Svg(Math.max(w, 760), h + LEGEND);
        for (int i = 0; i < results.size(); i++) {
            panel(svg, results.get(i), l, stacked ? 0 : i * panelW, stacked ? i * panelH : 0, portUtil == null ? null : portUtil.get(i), rank);
        }
        legend(svg, results, 10, h + 8, portUtil != null);
        return svg.end();
    }

    /** Threadblock index (plan order) of {@code rank}'s first threadblock, and its count. */
    static int[] tbRange(CompileResult r, int rank) {
        TbNumbering tbs = TbNumbering.of(r.plan());
        if (rank < 0 || rank >= tbs.ranks()) throw new IllegalArgumentException("no rank " + rank);
        return new int[] {tbs.first(rank), tbs.size(rank)};
    }

    /** Cell geometry: each router's cell holds its CUs grouped by die. */
    static final class Layout {
        final Topology topo;
        final int minX, minY, maxX, maxY;
        final double cellW, cellH, width, height;
        final Map<Integer, List<List<ComputeUnit>>> cusByRouter = new TreeMap<>();
        final int cols;

        Layout(Topology topo) {
            this.topo = topo;
            int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = Integer.MIN_VALUE, y1 = Integer.MIN_VALUE;
            for (Router r : topo.routers()) {
                x0 = Math.min(x0, r.x());
                y0 = Math.min(y0, r.y());
                x1 = Math.max(x1, r.x());
                y1 = Math.max(y1, r.y());
            }
            minX = x0;
            minY = y0;
            maxX = x1;
            maxY = y1;
            int maxGroup = 1, maxGroups = 1;
            for (Router r : topo.routers()) {
                Map<Integer, List<ComputeUnit>> byDie = new TreeMap<>();
                for (ComputeUnit c : topo.cus()) if (c.router() == r.index()) byDie.computeIfAbsent(c.die(), d -> new ArrayList<>()).add(c);
                List<List<ComputeUnit>> groups = new ArrayList<>(byDie.values());
                cusByRouter.put(r.index(), groups);
                for (List<ComputeUnit> g : groups) maxGroup = Math.max(maxGroup, g.size());
                maxGroups = Math.max(maxGroups, groups.size());
            }
            cols = (int) Math.ceil(Math.sqrt(maxGroup * 1.5));
            int rows = (int) Math.ceil((double) maxGroup / cols);
            cellW = maxGroups * (cols * (CU + GAP) + PAD) + PAD;
            cellH = rows * (CU + GAP) + 2 * PAD + (maxGroups > 1 ? 10 : 0);
            width = (maxX - minX + 1) * cellW;
            height = (maxY - minY + 1) * cellH;
        }

        double x(Router r) {
            return (r.x() - minX) * cellW;
        }

        double y(Router r) {
            return (r.y() - minY) * cellH;
        }

        /** Which outer edge a router's stacks and ports are drawn on: 0 left, 1 right, 2 top, 3 bottom. */
        int side(Router r, boolean preferVertical) {
            boolean l = r.x() == minX, rt = r.x() == maxX, t = r.y() == minY, b = r.y() == maxY;
            if (preferVertical && (t || b)) return t ? 2 : 3;
            if (l || rt) return l ? 0 : 1;
            return t ? 2 : b ? 3 : 2;
        }
    }

    private static void panel(Svg svg, CompileResult r, Layout l, double ox, double oy, Map<String, Double> util, int rank) {
        Topology topo = r.topology();
        double x0 = ox + EDGE + PAD + LABEL_W, y0 = oy + TITLE + EDGE + LABEL_H;
        int[] range = tbRange(r, rank);
        String title = r.plan().name() + " on " + topo.name() + " — " + r.search().chosen().candidate().id()
                + (r.placement().direct() ? ", port per peer" : r.placement().granularity() == 1 ? ", hashed over all ports" : "");
        svg.text(ox + PAD, oy + 18, 14, "start", title);
        svg.text(ox + PAD, oy + 34, 11, "start", "#555555", "rank " + rank + " of " + r.plan().ranks() + ": "
                + range[1] + " threadblocks; mean CU->port hops (all ranks) "
                + CanonicalJson.number(Math.round(r.placement().stats().meanCuPortHops() * 100) / 100.0));
        // dies: outline the cells of their routers
        for (Die d : topo.dies()) {
            double dx0 = Double.MAX_VALUE, dy0 = Double.MAX_VALUE, dx1 = -1, dy1 = -1;
            for (Router rt : topo.routers()) {
                if (rt.die() != d.index()) continue;
                dx0 = Math.min(dx0, l.x(rt));
                dy0 = Math.min(dy0, l.y(rt));
                dx1 = Math.max(dx1, l.x(rt) + l.cellW);
                dy1 = Math.max(dy1, l.y(rt) + l.cellH);
            }
            if (dx1 < 0) continue;
            svg.rect(x0 + dx0 + 1, y0 + dy0 + 1, dx1 - dx0 - 2, dy1 - dy0 - 2, "#f7f7f7", "#777777", 1.2, d.id());
            svg.text(x0 + dx0 + 4, y0 + dy1 - 4, 8, "start", "#888888", d.id());
        }
        int[] tbsOnCu = new int[topo.cus().size()];
        int[] domainOnCu = new int[topo.cus().size()];
        java.util.Arrays.fill(domainOnCu, -2);
        for (int t = range[0]; t < range[0] + range[1]; t++) {
            int cu = r.placement().cuOfTb()[t];
            tbsOnCu[cu]++;
            if (domainOnCu[cu] == -2) domainOnCu[cu] = r.placement().domainOfTb()[t];
        }
        int maxTbs = 1;
        for (int n : tbsOnCu) maxTbs = Math.max(maxTbs, n);
        for (Router rt : topo.routers()) {
            double cx = x0 + l.x(rt), cy = y0 + l.y(rt);
            svg.rect(cx + 2, cy + 2, l.cellW - 4, l.cellH - 4, "none", "#cfcfcf", 0.6, rt.id());
            List<List<ComputeUnit>> groups = l.cusByRouter.get(rt.index());
            double gx = cx + PAD;
            for (List<ComputeUnit> g : groups) {
                if (groups.size() > 1) svg.text(gx, cy + PAD + 2, 7, "start", "#888888", topo.dies().get(g.get(0).die()).id());
                double top = cy + PAD + (groups.size() > 1 ? 6 : 0);
                for (int i = 0; i < g.size(); i++) {
                    ComputeUnit c = g.get(i);
                    double x = gx + (i % l.cols) * (CU + GAP), y = top + (i / l.cols) * (CU + GAP);
                    int n = tbsOnCu[c.index()];
                    String fill = n == 0 ? "#e6e6e6" : Svg.tint(color(domainOnCu[c.index()]), 0.45 + 0.55 * n / maxTbs);
                    svg.rect(x, y, CU, CU, fill, null, 0, "CU " + c.index() + " (mask bit " + c.maskBit() + "): " + n
                            + " threadblock" + (n == 1 ? "" : "s") + (n > 0 ? ", domain " + domainOnCu[c.index()] : ""));
                }
                gx += l.cols * (CU + GAP) + PAD;
            }
        }
        stacks(svg, r, l, x0, y0, rank);
        ports(svg, r, l, x0, y0, util, rank);
    }

    private static void stacks(Svg svg, CompileResult r, Layout l, double x0, double y0, int rank) {
        Topology topo = r.topology();
        int[] pages = new int[topo.stacks().size()];
        for (PageMap pm : r.placement().pages()) if (pm.rank() == rank) for (int s : pm.stack()) pages[s]++;
        int max = 1;
        for (int p : pages) max = Math.max(max, p);
        Map<Integer, Integer> perRouter = new TreeMap<>();
        for (Stack s : topo.stacks()) {
            Router rt = topo.routers().get(s.router());
            int k = perRouter.merge(rt.index(), 1, Integer::sum) - 1;
            int side = l.side(rt, true);
            double w = side >= 2 ? Math.min(28, l.cellW / 2 - 4) : 14, h = side >= 2 ? 14 : Math.min(28, l.cellH / 2 - 4);
            double[] xy = edgeSlot(l, rt, side, k, w, h, x0, y0, 0.25);
            String fill = Svg.tint("#4d4d4d", 0.12 + 0.88 * pages[s.index()] / max);
            svg.rect(xy[0], xy[1], w, h, fill, "#333333", 0.8, "HBM stack " + s.id() + ": " + pages[s.index()] + " pages of rank " + rank);
        }
    }

    private static void ports(Svg svg, CompileResult r, Layout l, double x0, double y0, Map<String, Double> util, int rank) {
        Topology topo = r.topology();
        int k = r.placement().direct() ? 1 : r.placement().granularity();
        Map<Integer, List<Port>> byRouter = new TreeMap<>();
        for (Port p : topo.ports()) byRouter.computeIfAbsent(p.router(), x -> new ArrayList<>()).add(p);
        int planes = topo.scaleUpPorts().size();
        boolean direct = topo.scaleUp().peers().length > rank && topo.scaleUp().peers()[rank].length > 0;
        for (Map.Entry<Integer, List<Port>> e : byRouter.entrySet()) {
            Router rt = topo.routers().get(e.getKey());
            int side = l.side(rt, false);
            List<Port> ps = e.getValue();
            // few ports: each labelled; many: one label for the router's group
            boolean each = ps.size() <= 2;
            double gx0 = Double.MAX_VALUE, gy0 = Double.MAX_VALUE, gx1 = -Double.MAX_VALUE, gy1 = -Double.MAX_VALUE;
            for (int slot = 0; slot < ps.size(); slot++) {
                Port p = ps.get(slot);
                double[] xy = edgeSlot(l, rt, side, slot, 5, 5, x0, y0, 0.6);
                gx0 = Math.min(gx0, xy[0]);
                gy0 = Math.min(gy0, xy[1]);
                gx1 = Math.max(gx1, xy[0] + 5);
                gy1 = Math.max(gy1, xy[1] + 5);
                String fill;
                String what;
                if (p.plane() < 0) {
                    fill = "#000000";
                    what = p.kind().name().toLowerCase(java.util.Locale.ROOT) + " port " + p.id();
                } else if (r.placement().direct()) {
                    fill = color(p.plane());
                    what = "port " + p.id() + " (plane " + p.plane() + ")";
                } else if (k > 1) {
                    int d = p.plane() * k / planes;
                    fill = color(d);
                    what = "port " + p.id() + " (plane " + p.plane() + ", domain " + d + ")";
                } else {
                    fill = "#7f7f7f";
                    what = "port " + p.id() + " (plane " + p.plane() + ")";
                }
                if (direct && p.plane() >= 0) what += ", to GPU " + topo.scaleUp().peer(rank, p.plane());
                if (util != null) {
                    double u = util.getOrDefault(p.id(), 0.0);
                    fill = Svg.tint(fill, 0.15 + 0.85 * Math.min(1, u));
                    what += String.format(java.util.Locale.ROOT, ", %.0f %% busy", 100 * u);
                }
                svg.circle(xy[0] + 2.5, xy[1] + 2.5, 2.6, fill, what);
                if (each) portLabel(svg, side, xy[0], xy[1], xy[0] + 5, xy[1] + 5, portText(topo, p, direct, rank));
            }
            if (!each) portLabel(svg, side, gx0, gy0, gx1, gy1, groupText(topo, ps, direct, rank));
        }
    }

    /** "x0 → GPU 1" (direct), "p3 plane 3" (switched), "nic0". */
    private static String portText(Topology topo, Port p, boolean direct, int rank) {
        if (p.plane() < 0) return p.id();
        return p.id() + (direct ? " \u2192 GPU " + topo.scaleUp().peer(rank, p.plane()) : " plane " + p.plane());
    }

    /** A router's ports in one label: their planes (switched) or peers (direct) as a range. */
    private static String groupText(Topology topo, List<Port> ps, boolean direct, int rank) {
        int lo = Integer.MAX_VALUE, hi = -1, io = 0;
        for (Port p : ps) {
            if (p.plane() < 0) {
                io++;
                continue;
            }
            lo = Math.min(lo, p.plane());
            hi = Math.max(hi, p.plane());
        }
        String s = hi < 0 ? "" : (lo == hi ? "plane " + lo : "planes " + lo + "\u2013" + hi);
        if (direct && hi >= 0) s = "to " + (hi - lo + 1) + " peers";
        if (io > 0) s += (s.isEmpty() ? "" : ", ") + io + " host/NIC";
        return s;
    }

    /** A label beside the ports in [x0,x1]×[y0,y1], outward from the chip. */
    private static void portLabel(Svg svg, int side, double x0, double y0, double x1, double y1, String s) {
        double my = (y0 + y1) / 2 + 2;
        switch (side) {
            case 0 -> svg.text(x0 - 2, my, 7, "end", "#444444", s);
            case 1 -> svg.text(x1 + 2, my, 7, "start", "#444444", s);
            case 2 -> svg.text((x0 + x1) / 2, y0 - 2, 7, "middle", "#444444", s);
            default -> svg.text((x0 + x1) / 2, y1 + 7, 7, "middle", "#444444", s);
        }
    }

    /** Position of the i-th item drawn on a router's outer edge. */
    private static double[] edgeSlot(Layout l, Router rt, int side, int i, double w, double h, double x0, double y0, double start) {
        double cx = x0 + l.x(rt), cy = y0 + l.y(rt);
        return switch (side) {
            case 0 -> new double[] {cx - EDGE + 2 + (i / rows(l, h)) * (w + 2), cy + start * PAD + (i % rows(l, h)) * (h + 2)};
            case 1 -> new double[] {cx + l.cellW + 4 + (i / rows(l, h)) * (w + 2), cy + start * PAD + (i % rows(l, h)) * (h + 2)};
            case 2 -> new double[] {cx + start * PAD + (i % colsFit(l, w)) * (w + 2), cy - EDGE + 2 + (i / colsFit(l, w)) * (h + 2)};
            default -> new double[] {cx + start * PAD + (i % colsFit(l, w)) * (w + 2), cy + l.cellH + 4 + (i / colsFit(l, w)) * (h + 2)};
        };
    }

    private static int rows(Layout l, double h) {
        return Math.max(1, (int) ((l.cellH - PAD) / (h + 2)));
    }

    private static int colsFit(Layout l, double w) {
        return Math.max(1, (int) ((l.cellW - PAD) / (w + 2)));
    }

    static String color(int domain) {
        return domain < 0 ? "#7f7f7f" : Svg.PALETTE[domain % Svg.PALETTE.length];
    }

    private static void legend(Svg svg, List<CompileResult> rs, double x, double y, boolean util) {
        int k = 1;
        boolean direct = false;
        for (CompileResult r : rs) {
            k = Math.max(k, r.placement().granularity());
            direct |= r.placement().direct();
        }
        String label = direct ? "CU and port colour: the scale-up port (plane) the threadblocks use" : "CU and port colour: NAR domain";
        svg.text(x, y + 10, 10, "start", label);
        double cx = x + label.length() * 5.6 + 10;
        // with no NAR (k = 1) every CU and port is hashed: no domain swatches
        int shown = direct ? Math.min(8, rs.get(0).topology().scaleUpPorts().size()) : k > 1 ? k : 0;
        for (int d = 0; d < shown; d++) {
            svg.rect(cx, y + 2, 10, 10, color(d), null, 0);
            svg.text(cx + 13, y + 11, 9, "start", String.valueOf(d));
            cx += 30;
        }
        svg.rect(cx, y + 2, 10, 10, color(-1), null, 0);
        svg.text(cx + 13, y + 11, 9, "start", "hashed");
        cx += 60;
        svg.rect(cx, y + 2, 10, 10, "#e6e6e6", null, 0);
        svg.text(cx + 13, y + 11, 9, "start", "idle CU");
        double y2 = y + 28;
        svg.text(x, y2, 10, "start", "darker CU = more threadblocks; edge squares = HBM stacks (darker = more pages);"
                + " dots = I/O ports (black = host/NIC)" + (util ? ", paler = less busy in the simulation" : ""));
    }
}
