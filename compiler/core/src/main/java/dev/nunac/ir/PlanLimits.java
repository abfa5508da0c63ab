package dev.nunac.ir;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;

/**
 * The bounds a front end checks on the IR it built, before anything is sized by it: the
 * checker and every pass allocate per chunk, so a count the file states (an {@code o_chunks} of
 * 2^31 - 1) must be refused here, not met as a failed allocation later.
 */
public final class PlanLimits {
    private PlanLimits() {}

    /**
     * Refuses a plan whose buffers, replicated {@code times} (the DSL's instances, applied
     * later; 1 otherwise), hold more chunks than the limit allows.
     */
    public static void checkChunks(Plan plan, long times, Limits limits) {
        long chunks = ChunkSpace.size(plan) * times;
        if (chunks <= limits.maxChunks()) return;
        throw new CompileException(ErrorKind.PLAN, plan.pos(), "the plan's buffers hold " + chunks + " chunks on its "
                + plan.ranks() + " ranks; the limit is " + limits.maxChunks() + " (raise it with --limit chunks=N)");
    }
}
