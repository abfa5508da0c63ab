package dev.nunac.passes.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Transfers;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Stage;
import dev.nunac.testkit.PlanBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker accepts correct plans and names what is wrong with the others. */
class CheckPassTest {
    static List<String> errors(Plan p) {
        Diagnostics d = new Diagnostics();
        CheckPass.check(p, d);
        return d.all().stream().map(Diagnostic::message).toList();
    }

    @Test
    void aCorrectPlanPassesAndItsPairingIsKept() {
        Compilation c = new Compilation(PlanBuilder.directAllgather(3), new Diagnostics());
        CheckPass pass = new CheckPass();
        pass.run(c);
        assertFalse(c.diagnostics().hasErrors(), () -> c.diagnostics().all().toString());
        assertEquals(3 * 2, c.get(CheckPass.TRANSFERS).transfers().size(), "one transfer per ordered pair of ranks");
        assertEquals(Stage.CHECKED, pass.provides());
    }

    @Test
    void aWrongOutputChunkIsNamedWithWhatWasExpected() {
        // rank 1 never sends: rank 0's output[1] stays empty
        Plan p = PlanBuilder.of(Collective.ALLGATHER, 2).inplace()
                .rank(0).tb().sendTo(1).send("input[0]")
                .rank(1).tb().recvFrom(0).recv("output[0]")
                .build();
        assertEquals(List.of("postcondition of allgather fails at rank 0, output[1]: expected input chunk 0 of rank 1, found nothing"),
                errors(p));
    }

    @Test
    void aReductionThatMissesARankIsDescribedAsAReduction() {
        Plan p = PlanBuilder.of(Collective.ALLREDUCE, 2)
                .rank(0).tb().sendTo(1).recvFrom(1).send("input[0]").recv("output[0]")
                .rank(1).tb().sendTo(0).recvFrom(0).send("input[0]").recvReduceCopy("input[0]", "output[0]")
                .build();
        assertEquals(List.of("postcondition of allreduce fails at rank 0, output[0]: expected the reduction of input chunk 0"
                + " over ranks 0, 1, found input chunk 0 of rank 1"), errors(p));
        Plan fixed = PlanBuilder.of(Collective.ALLREDUCE, 2)
                .rank(0).tb().sendTo(1).recvFrom(1).send("input[0]").recvReduceCopy("input[0]", "output[0]")
                .rank(1).tb().sendTo(0).recvFrom(0).send("input[0]").recvReduceCopy("input[0]", "output[0]")
                .build();
        assertEquals(List.of(), errors(fixed));
    }

    @Test
    void aSendNobodyReceivesIsReportedAtItsStep() {
        Plan p = PlanBuilder.of(Collective.CUSTOM, 2).rank(0).tb().sendTo(1).send("input[0]").build();
        assertEquals(List.of("rank 0 threadblock 0 step 0 (s) sends to rank 1 on channel 0, which receives nothing to match it"), errors(p));
    }

    @Test
    void twoThreadblocksWaitingForEachOtherAreADeadlock() {
        Plan p = PlanBuilder.of(Collective.CUSTOM, 2)
                .rank(0).tb().sendTo(1).recvFrom(1).recv("output[0]").send("input[0]")
                .rank(1).tb().sendTo(0).recvFrom(0).recv("output[0]").send("input[0]")
                .build();
        List<String> e = errors(p);
        assertEquals(1, e.size(), e::toString);
        assertTrue(e.get(0).startsWith("deadlock: 2 threadblock(s) can never finish; rank 0 threadblock 0 step 0 (r)"), e::toString);
    }

    @Test
    void aMalformedPlanStopsBeforeThePairing() {
        Plan p = PlanBuilder.of(Collective.CUSTOM, 2).rank(0).tb().sendTo(1).send("input[5]").build();
        Diagnostics d = new Diagnostics();
        Transfers t = CheckPass.check(p, d);
        assertEquals(null, t);
        assertTrue(d.all().get(0).message().contains("out of bounds"), d.all()::toString);
    }
}
