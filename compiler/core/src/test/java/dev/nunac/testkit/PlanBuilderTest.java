package dev.nunac.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.Plan;
import org.junit.jupiter.api.Test;

/** The builder makes the plans its lines say, in the IR's own text form, and well-formed. */
class PlanBuilderTest {
    @Test
    void aPlanPrintsAsItWasWritten() {
        Plan p = PlanBuilder.of(Collective.ALLGATHER, 2).name("ag").inplace()
                .rank(0).tb().sendTo(1).recvFrom(1).send("input[0]").recv("output[1]")
                .rank(1).tb().sendTo(0).recvFrom(0).recv("output[0]").send("input[0]")
                .tb().copy("input[0]", "output[1]").after(0, 1)
                .build();
        assertEquals("""
                plan "ag"
                  collective allgather  ranks 2  chunk_factor 1  instances 1  inplace true  protocol Simple  format dsl
                rank 0
                  buffer input 1
                  buffer output 2
                  tb 0 send 1 recv 1 chan 0
                    0 s src input[0]
                    1 r dst output[1]
                rank 1
                  buffer input 1
                  buffer output 2
                  tb 0 send 0 recv 0 chan 0
                    0 r dst output[0]
                    1 s src input[0] hasdep
                  tb 1 send -1 recv -1 chan 0
                    0 cpy src input[0] dst output[1] deps tb0.1
                """, IrPrinter.print(p));
        assertTrue(IrVerifier.verify(p).all().isEmpty(), () -> IrVerifier.verify(p).all().toString());
    }

    @Test
    void theCannedPlansAreWellFormed() {
        for (Plan p : new Plan[] {PlanBuilder.directAllgather(4), PlanBuilder.oneSidedAllgather(3)}) {
            assertTrue(IrVerifier.verify(p).all().isEmpty(), () -> p.name() + ": " + IrVerifier.verify(p).all());
        }
        assertEquals(4 * 3, PlanBuilder.directAllgather(4).threadblockCount());
        assertEquals(3 * 2 * 3, PlanBuilder.oneSidedAllgather(3).stepCount());
    }

    @Test
    void chunksAreWrittenAsTheIrPrintsThem() {
        assertEquals(new ChunkRef(2, "output", 4, 2), PlanBuilder.ref(2, "output[4+2]"));
        assertEquals(new ChunkRef(1, "scratch", 0, 1), PlanBuilder.ref(0, "r1:scratch[0]"));
        assertThrows(IllegalArgumentException.class, () -> PlanBuilder.ref(0, "output(1)"));
    }
}
