package dev.nunac.topology;

/** A bidirectional NoC link between two routers (from &lt; to). */
public record Link(int from, int to, double latencyCycles, double bandwidthGBs) {}
