package dev.nunac.passes.cost;

import dev.nunac.ir.Plan;
import dev.nunac.ir.Step;

/**
 * A plan's data-moving steps ({@link TransferKind#movesData}) and the chunks they move, counted in
 * one place: the simulator shares its batch budget over the steps, and the placement search
 * reads the mean transfer size.
 */
public record MovingSteps(int steps, long chunks) {
    public static MovingSteps of(Plan plan) {
        int steps = 0;
        long chunks = 0;
        for (var rp : plan.rankPlans()) {
            for (var tb : rp.threadblocks()) {
                for (Step st : tb.steps()) {
                    if (!TransferKind.movesData(st.op())) continue;
                    steps++;
                    chunks += st.count();
                }
            }
        }
        return new MovingSteps(steps, chunks);
    }

    /** The mean bytes a data-moving step moves with chunks of {@code chunkBytes} (0 without such steps). */
    public long meanBytes(long chunkBytes) {
        return steps == 0 ? 0 : chunks * chunkBytes / steps;
    }
}
