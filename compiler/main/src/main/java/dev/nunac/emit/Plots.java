package dev.nunac.emit;

import java.util.List;

/**
 * Self-contained SVG charts for `nunac compare --plot`: a line chart over categorical x values
 * (the paper's Fig. 9 style: speedup over UA against collective size, one line per policy) and
 * a histogram (Fig. 10 style: store-latency distribution, one series per policy). Axes, ticks,
 * labels and a legend; no external tools.
 */
public final class Plots {
    private Plots() {}

    /** A named line: one y per x category (NaN points are skipped). */
    public record Series(String name, double[] y) {}

    /** Counts over equal-width bins starting at {@code start} ns, {@code width} ns wide. */
    public record Histogram(String name, double start, double width, long[] counts) {}

    /**
     * How a series is drawn: each policy family its own hue (ua grey, numa blue, nap red, nap*
     * green, balanced purple, auto black); the +nar variant of a family dashed, with square
     * markers, so that nap and nap*, or numa+nar and nap+nar, are never told apart by shade alone.
     */
    record Style(String color, String dash, boolean square) {}

    static Style style(String name, int i) {
        // a candidate id such as "nap+nar k=2" is drawn as its policy
        return switch (name.split(" ")[0]) {
            case "auto" -> new Style("#000000", null, false);
            case "ua" -> new Style("#7f7f7f", null, false);
            case "ua+nar" -> new Style("#7f7f7f", "6,3", true);
            case "numa" -> new Style("#1f77b4", null, false);
            case "numa+nar" -> new Style("#1f77b4", "6,3", true);
            case "nap" -> new Style("#d62728", null, false);
            case "nap+nar" -> new Style("#d62728", "6,3", true);
            case "nap*" -> new Style("#2ca02c", null, false);
            case "nap*+nar" -> new Style("#2ca02c", "6,3", true);
            case "balanced" -> new Style("#9467bd", "2,2", true);
            default -> new Style(Svg.PALETTE[i % Svg.PALETTE.length], null, false);
        };
    }

    static final double W = 720, H = 420, L = 70, R = 170, T = 50, B = 60;

    public static String lineChart(String title, String xLabel, String yLabel, List<String> xs, List<Series> series,
                                   Double reference) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) for (double v : s.y()) if (!Double.isNaN(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        if (reference != null) { lo = Math.min(lo, reference); hi = Math.max(hi, reference); }
        if (lo == Double.POSITIVE_INFINITY) { lo = 0; hi = 1; }
        // a margin below the lowest value, so that a line at the bottom (ua at 1) is not hidden by the axis
        double[] ticks = ticks(lo - 0.05 * Math.max(hi - lo, 1e-9), hi);
        double y0 = ticks[0], y1 = ticks[ticks.length - 1];
        Svg svg = frame(title, xLabel, yLabel);
        double pw = W - L - R, ph = H - T - B;
        yAxis(svg, ticks, y0, y1, ph);
        int n = xs.size();
        for (int i = 0; i < n; i++) {
            double x = L + (n == 1 ? pw / 2 : i * pw / (n - 1));
            svg.line(x, T + ph, x, T + ph + 5, "#444444", 1);
            svg.text(x, T + ph + 18, 10, "middle", xs.get(i));
        }
        if (reference != null) {
            double ry = T + ph - (reference - y0) / (y1 - y0) * ph;
            svg.line(L, ry, L + pw, ry, "#999999", 1);
        }
        for (int s = 0; s < series.size(); s++) {
            double[] v = series.get(s).y();
            Style st = style(series.get(s).name(), s);
            String c = st.color();
            int m = 0;
            double[] px = new double[n], py = new double[n];
            for (int i = 0; i < Math.min(n, v.length); i++) {
                if (Double.isNaN(v[i])) continue;
                px[m] = L + (n == 1 ? pw / 2 : i * pw / (n - 1));
                py[m] = T + ph - (v[i] - y0) / (y1 - y0) * ph;
                String tip = series.get(s).name() + " at " + xs.get(i) + ": " + CanonicalJson.number(v[i]);
                if (st.square()) svg.rect(px[m] - 3.5, py[m] - 3.5, 7, 7, "none", c, 1.5, tip);
                else svg.circle(px[m], py[m], 3, c, tip);
                m++;
            }
            if (m > 1) svg.polyline(java.util.Arrays.copyOf(px, m), java.util.Arrays.copyOf(py, m), c, 2, st.dash());
            legendEntry(svg, s, series.get(s).name(), st);
        }
        return svg.end();
    }

    public static String histogram(String title, String xLabel, List<Histogram> hs) {
        double xlo = Double.POSITIVE_INFINITY, xhi = Double.NEGATIVE_INFINITY;
        long max = 1;
        for (Histogram h : hs) {
            xlo = Math.min(xlo, h.start());
            xhi = Math.max(xhi, h.start() + h.width() * h.counts().length);
            for (long c : h.counts()) max = Math.max(max, c);
        }
        if (xlo == Double.POSITIVE_INFINITY) { xlo = 0; xhi = 1; }
        Svg svg = frame(title, xLabel, "stores");
        double pw = W - L - R, ph = H - T - B;
        double[] yt = ticks(0, max);
        yAxis(svg, yt, 0, yt[yt.length - 1], ph);
        double[] xt = ticks(xlo, xhi);
        for (double t : xt) {
            if (t < xlo - 1e-9 || t > xhi + 1e-9) continue;
            double x = L + (t - xlo) / (xhi - xlo) * pw;
            svg.line(x, T + ph, x, T + ph + 5, "#444444", 1);
            svg.text(x, T + ph + 18, 10, "middle", CanonicalJson.number(t));
        }
        for (int s = 0; s < hs.size(); s++) {
            Histogram h = hs.get(s);
            Style st = style(h.name(), s);
            String c = st.color();
            for (int i = 0; i < h.counts().length; i++) {
                if (h.counts()[i] == 0) continue;
                double bx = L + (h.start() + i * h.width() - xlo) / (xhi - xlo) * pw;
                double bw = h.width() / (xhi - xlo) * pw;
                double bh = (double) h.counts()[i] / yt[yt.length - 1] * ph;
                svg.raw("<rect x=\"" + Svg.n(bx) + "\" y=\"" + Svg.n(T + ph - bh) + "\" width=\"" + Svg.n(Math.max(bw - 0.5, 0.5))
                        + "\" height=\"" + Svg.n(bh) + "\" fill=\"" + c + "\" fill-opacity=\"0.55\"/>\n");
            }
            legendEntry(svg, s, h.name(), new Style(c, null, false));
        }
        return svg.end();
    }

    private static Svg frame(String title, String xLabel, String yLabel) {
        Svg svg = new Svg(W, H);
        // centred over the plot while it fits; a long title is centred on the page and set smaller
        // (about 0.56 em per character) so that neither end is cut off
        double room = W - 20, fit = room / (0.56 * Math.max(1, title.length()));
        double size = Math.min(15, Math.max(9, fit));
        double half = 0.28 * size * title.length(), over = W / 2 - R / 2 + L / 2;
        double cx = over - half >= 10 && over + half <= W - 10 ? over : W / 2;
        svg.text(cx, 26, size, "middle", title);
        double ph = H - T - B;
        svg.line(L, T, L, T + ph, "#444444", 1);
        svg.line(L, T + ph, W - R, T + ph, "#444444", 1);
        svg.text(L + (W - L - R) / 2, H - 16, 12, "middle", xLabel);
        svg.raw("<text x=\"18\" y=\"" + Svg.n(T + ph / 2) + "\" font-size=\"12\" text-anchor=\"middle\" fill=\"#222222\" "
                + "transform=\"rotate(-90 18 " + Svg.n(T + ph / 2) + ")\">" + Svg.esc(yLabel) + "</text>\n");
        return svg;
    }

    private static void yAxis(Svg svg, double[] ticks, double y0, double y1, double ph) {
        for (double t : ticks) {
            double y = T + ph - (t - y0) / (y1 - y0) * ph;
            svg.line(L - 5, y, L, y, "#444444", 1);
            svg.line(L, y, W - R, y, "#eeeeee", 1);
            svg.text(L - 8, y + 4, 10, "end", CanonicalJson.number(t));
        }
    }

    private static void legendEntry(Svg svg, int i, String name, Style st) {
        double y = T + 10 + i * 18;
        if (st.dash() == null && !st.square()) {
            svg.rect(W - R + 12, y - 9, 20, 12, st.color(), null, 0);
        } else {
            svg.polyline(new double[] {W - R + 12, W - R + 32}, new double[] {y - 3, y - 3}, st.color(), 2, st.dash());
            if (st.square()) svg.rect(W - R + 18.5, y - 6.5, 7, 7, "#ffffff", st.color(), 1.5);
        }
        svg.text(W - R + 38, y + 1, 11, "start", name);
    }

    /** About five round ticks covering [lo, hi]. */
    static double[] ticks(double lo, double hi) {
        if (hi <= lo) hi = lo + 1;
        double raw = (hi - lo) / 5, mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
        double start = Math.floor(lo / step) * step, end = Math.ceil(hi / step) * step;
        int n = (int) Math.round((end - start) / step) + 1;
        double[] t = new double[n];
        for (int i = 0; i < n; i++) t[i] = start + i * step;
        return t;
    }
}
