package dev.nunac.passes.cost;

import java.util.Arrays;
import java.util.Locale;

/**
 * Weighted samples of one-way off-chip store latency (from issue at the CU until the flit is
 * written in the destination stack) in 1 ns bins. Flits of a parcel are
 * recorded as a few weighted points spread between its head's and its tail's latency, so the
 * cost stays bounded for large transfers while totals and the mean stay exact.
 */
public final class LatencyHistogram {
    /** Latencies from this many ns on share the last bin, so memory stays bounded whatever a spec says (max stays exact). */
    static final int MAX_BINS = 1 << 20;
    private double[] bins = new double[2048];
    private double count, sum, max = Double.NEGATIVE_INFINITY, min = Double.POSITIVE_INFINITY;

    void add(double latencyNs, double weight) {
        if (weight <= 0) return;
        int b = (int) Math.min(MAX_BINS - 1, Math.max(0, Math.floor(latencyNs)));
        if (b >= bins.length) bins = Arrays.copyOf(bins, Math.min(MAX_BINS, Math.max(b + 1, bins.length * 2)));
        bins[b] += weight;
        count += weight;
        sum += latencyNs * weight;
        max = Math.max(max, latencyNs);
        min = Math.min(min, latencyNs);
    }

    /** {@code m} flits whose latencies run evenly from {@code first} to {@code last}. */
    void addSpread(double first, double last, double m) {
        int points = (int) Math.max(1, Math.min(16, Math.ceil(m)));
        for (int i = 0; i < points; i++) {
            double f = points == 1 ? 0.5 : (double) i / (points - 1);
            add(first + (last - first) * f, m / points);
        }
    }

    public LatencyStats stats() {
        if (count == 0) return new LatencyStats(0, 0, 0, 0, 0, 0);
        return new LatencyStats(count, sum / count, quantile(0.5), quantile(0.99), max, min);
    }

    /** The smallest bin edge (ns) below which at least fraction {@code q} of the weight lies. */
    public double quantile(double q) {
        double target = q * count, acc = 0;
        for (int b = 0; b < bins.length; b++) {
            acc += bins[b];
            if (acc >= target && bins[b] > 0) return Math.min(b + 1.0, max);
        }
        return max;
    }

    /** Counts in bins of {@code width} ns from the lowest to the highest occupied bin. */
    public double[][] coarse(int width) {
        if (count == 0) return new double[0][];
        int lo = (int) Math.min(Math.floor(min), MAX_BINS - 1) / width, hi = (int) Math.min(Math.floor(max), MAX_BINS - 1) / width;
        double[][] out = new double[hi - lo + 1][2];
        for (int i = 0; i < out.length; i++) out[i][0] = (double) (lo + i) * width;
        for (int b = lo * width; b < Math.min(bins.length, (hi + 1) * width); b++) out[b / width - lo][1] += bins[b];
        return out;
    }

    /** CSV: {@code bin_start_ns,flits}, 10 ns bins. */
    public String csv(int width) {
        StringBuilder sb = new StringBuilder("bin_start_ns,flits\n");
        for (double[] r : coarse(width)) sb.append(String.format(Locale.ROOT, "%.0f,%.2f%n", r[0], r[1]));
        return sb.toString();
    }

    /** A text histogram, one row per bin, bars scaled to {@code barWidth} characters. */
    public String text(int width, int barWidth) {
        double[][] rows = coarse(width);
        double peak = 0;
        for (double[] r : rows) peak = Math.max(peak, r[1]);
        StringBuilder sb = new StringBuilder();
        for (double[] r : rows) {
            int n = peak == 0 ? 0 : (int) Math.round(r[1] / peak * barWidth);
            sb.append(String.format(Locale.ROOT, "%6.0f ns %10.1f |%s%n", r[0], r[1], "#".repeat(n)));
        }
        return sb.toString();
    }
}
