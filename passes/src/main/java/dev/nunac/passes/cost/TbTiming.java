package dev.nunac.passes.cost;

/**
 * One threadblock's timing: when it finished its last step, how long it spent issuing its own
 * transfers, and how long it waited for data, signals or dependencies.
 */
public record TbTiming(int rank, int tb, int cu, double finishNs, double busyNs, double waitNs) {}
