package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.testkit.PlanBuilder;
import org.junit.jupiter.api.Test;

class MovingStepsTest {
    @Test
    void countsTheSendsAndTheirChunksButNotTheReceives() {
        // four ranks, each sending one chunk to each of three peers and receiving three
        MovingSteps m = MovingSteps.of(PlanBuilder.directAllgather(4));
        assertEquals(new MovingSteps(12, 12), m);
        assertEquals(4096, m.meanBytes(4096));
    }

    @Test
    void aPlanWithoutDataMovingStepsHasNoMeanSize() {
        assertEquals(0, new MovingSteps(0, 0).meanBytes(4096));
    }
}
