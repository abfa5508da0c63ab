package dev.nunac.topology;

/**
 * A die of the package at grid position (col,row) of the arrangement; {@code on} is the index of
 * the die it is stacked on (MI300X XCDs sit on IODs), or -1.
 */
public record Die(int index, String id, DieKind kind, int col, int row, int on) {}
