package dev.nunac.passes.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Transfers;
import dev.nunac.testkit.PlanBuilder;
import org.junit.jupiter.api.Test;

/** How the postcondition names symbolic values in its messages. */
class PostconditionTest {
    static SymbolicExecution executed(Plan p) {
        SymbolicExecution ex = new SymbolicExecution(p, Transfers.of(p));
        ex.run(new dev.nunac.diag.Diagnostics());
        return ex;
    }

    @Test
    void valuesAreNamedByInputChunkAndRank() {
        SymbolicExecution ex = executed(PlanBuilder.of(Collective.ALLREDUCE, 4).chunkFactor(2).build());
        assertEquals("input chunk 1 of rank 3", Postcondition.describe(ex, new int[] {ex.id(3, 1)}));
        assertEquals("the reduction of input chunk 1 over ranks 0, 2", Postcondition.describe(ex, new int[] {ex.id(0, 1), ex.id(2, 1)}));
        assertEquals("the reduction of input chunks r0[0], r1[1]", Postcondition.describe(ex, new int[] {ex.id(0, 0), ex.id(1, 1)}));
    }

    @Test
    void aLongReductionIsAbbreviated() {
        SymbolicExecution ex = executed(PlanBuilder.of(Collective.ALLREDUCE, 16).build());
        int[] all = new int[16];
        for (int r = 0; r < 16; r++) all[r] = ex.id(r, 0);
        assertEquals("the reduction of input chunk 0 over ranks 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ... (16 in all)", Postcondition.describe(ex, all));
    }
}
