package dev.nunac.emit;

import java.util.Locale;

/** A minimal SVG writer: escaped text, locale-independent numbers, deterministic output. */
final class Svg {
    private final StringBuilder sb = new StringBuilder(16_384);

    Svg(double width, double height) {
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(n(width)).append("\" height=\"").append(n(height))
                .append("\" viewBox=\"0 0 ").append(n(width)).append(' ').append(n(height))
                .append("\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n");
        rect(0, 0, width, height, "#ffffff", null, 0);
    }

    static String n(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    Svg rect(double x, double y, double w, double h, String fill, String stroke, double strokeWidth) {
        return rect(x, y, w, h, fill, stroke, strokeWidth, null);
    }

    Svg rect(double x, double y, double w, double h, String fill, String stroke, double strokeWidth, String title) {
        sb.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append('"');
        if (stroke != null) sb.append(" stroke=\"").append(stroke).append("\" stroke-width=\"").append(n(strokeWidth)).append('"');
        if (title != null) sb.append("><title>").append(esc(title)).append("</title></rect>\n");
        else sb.append("/>\n");
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String stroke, double width) {
        sb.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
                .append(n(width)).append("\"/>\n");
        return this;
    }

    Svg polyline(double[] xs, double[] ys, String stroke, double width) {
        return polyline(xs, ys, stroke, width, null);
    }

    /** {@code dash}: an SVG stroke-dasharray such as "6,3", or null for a solid line. */
    Svg polyline(double[] xs, double[] ys, String stroke, double width, String dash) {
        sb.append("<polyline fill=\"none\" stroke=\"").append(stroke).append("\" stroke-width=\"").append(n(width));
        if (dash != null) sb.append("\" stroke-dasharray=\"").append(dash);
        sb.append("\" points=\"");
        for (int i = 0; i < xs.length; i++) sb.append(i > 0 ? " " : "").append(n(xs[i])).append(',').append(n(ys[i]));
        sb.append("\"/>\n");
        return this;
    }

    Svg circle(double cx, double cy, double r, String fill, String title) {
        sb.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                .append("\" fill=\"").append(fill).append('"');
        if (title != null) sb.append("><title>").append(esc(title)).append("</title></circle>\n");
        else sb.append("/>\n");
        return this;
    }

    Svg text(double x, double y, double size, String anchor, String s) {
        return text(x, y, size, anchor, "#222222", s);
    }

    Svg text(double x, double y, double size, String anchor, String color, String s) {
        sb.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(n(size))
                .append("\" text-anchor=\"").append(anchor).append("\" fill=\"").append(color).append("\">")
                .append(esc(s)).append("</text>\n");
        return this;
    }

    Svg raw(String s) {
        sb.append(s);
        return this;
    }

    String end() {
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** Twelve colours that stay distinct side by side (domain d uses PALETTE[d % 12]). */
    static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939"};

    /** Mixes {@code hex} with white: t = 1 gives the colour, t = 0 white. */
    static String tint(String hex, double t) {
        int r = Integer.parseInt(hex.substring(1, 3), 16), g = Integer.parseInt(hex.substring(3, 5), 16),
                b = Integer.parseInt(hex.substring(5, 7), 16);
        double k = Math.max(0, Math.min(1, t));
        return String.format(Locale.ROOT, "#%02x%02x%02x", (int) Math.round(255 - (255 - r) * k),
                (int) Math.round(255 - (255 - g) * k), (int) Math.round(255 - (255 - b) * k));
    }
}
