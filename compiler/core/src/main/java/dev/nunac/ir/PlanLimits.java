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

    /** The message of {@link Limits#maxStepChunks}, shared by the front ends. */
    public static String stepChunksMessage(Limits limits) {
        return "the plan's steps name more than " + limits.maxStepChunks() + " chunks in all (every step's count, summed;"
                + " raise it with --limit step-chunks=N)";
    }

    /**
     * Refuses an imported plan whose steps name more chunks in all than the limit allows, at the
     * step that passes it: the checker and access analysis work per chunk of every step, so
     * 2,000 steps of a million chunks each would take minutes and gigabytes.
     */
    public static void checkStepChunks(Plan plan, Limits limits) {
        long total = 0;
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock tb : rp.threadblocks()) {
                for (Step s : tb.steps()) {
                    total += s.count();
                    if (total > limits.maxStepChunks()) {
                        throw new CompileException(ErrorKind.PLAN, s.pos(), stepChunksMessage(limits));
                    }
                }
            }
        }
    }
}
