package dev.nunac.passes.cost;

import dev.nunac.ir.TbId;

/**
 * One threadblock's timing: when it finished its last step, how long it spent issuing its own
 * transfers, and how long it waited for data, signals or dependencies.
 */
public record TbTiming(TbId tb, int cu, double finishNs, double busyNs, double waitNs) {}
