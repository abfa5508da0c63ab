package dev.nunac.passes.cost;

/**
 * The opening stretch of a simulation ({@link Simulator#opening}): the flits of the plan's data in
 * memory by {@code untilNs}, and the events it took to get there. Two placements of one plan
 * opened over the same stretch compare by how much each has landed: in a collective whose
 * transfers stream, the rate of the opening is the rate of the whole.
 */
public record Opening(double untilNs, double landedFlits, double halfwayFlits, long events) {}
