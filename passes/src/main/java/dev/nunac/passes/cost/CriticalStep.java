package dev.nunac.passes.cost;

import dev.nunac.ir.TbId;

/**
 * A step on a critical path: what it is, when it started and ended, and why it could not start
 * earlier.
 */
public record CriticalStep(TbId tb, int step, String op, double startNs, double endNs, WaitCause cause) {}
