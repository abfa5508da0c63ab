package dev.nunac.topology;

/** An HBM stack attached to a router. */
public record Stack(int index, String id, int router, int die, double bandwidthGBs, double capacityGiB, double latencyNs) {}
