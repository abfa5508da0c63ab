package dev.nunac.topology;

/** A NoC router at (x,y), belonging to one die. */
public record Router(int index, String id, int x, int y, int die) {}
