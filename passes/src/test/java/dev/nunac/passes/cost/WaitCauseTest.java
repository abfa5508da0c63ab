package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The causes keep the words reports and JSON have always printed; the simulator's bytes map back to them. */
class WaitCauseTest {
    @Test
    void causesPrintTheirWords() {
        assertEquals(List.of("start", "previous step", "dependency", "peer data"),
                Arrays.stream(WaitCause.values()).map(WaitCause::text).toList());
    }

    @Test
    void ordinalsMapBack() {
        for (WaitCause c : WaitCause.values()) assertEquals(c, WaitCause.ofOrdinal((byte) c.ordinal()));
    }

    @Test
    void aCriticalPathNamesEachWait() {
        // rank 0 sends; rank 1 receives, then copies what it received: the copy ends last
        Plan plan = PlanBuilder.of(Collective.ALLGATHER, 2).buffer("scratch", 1)
                .rank(0).tb().sendTo(1).send("input[0]")
                .rank(1).tb().recvFrom(0).recv("output[0]").copy("output[0]", "scratch[0]")
                .build();
        List<WaitCause> causes = SimulatorTest.simulate(plan, Topologies.nuna4die(), 1 << 20).criticalPath().stream()
                .map(CriticalStep::cause).toList();
        assertEquals(List.of(WaitCause.START, WaitCause.PEER_DATA, WaitCause.PREVIOUS_STEP), causes);
    }
}
