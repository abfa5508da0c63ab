package dev.nunac.passes.cost;

/** Summary of one-way off-chip store latency: flits counted, mean, median, 99th percentile, max, min (ns). */
public record LatencyStats(double flits, double meanNs, double p50Ns, double p99Ns, double maxNs, double minNs) {}
