package dev.nunac.passes.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.testkit.PlanBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Logical allocation: threadblocks that share chunks share a group (paper §4.2.1). */
class LogicalAllocationTest {
    @Test
    void threadblocksSharingAChunkFormOneGroupAcrossRanks() {
        LogicalGroups g = Fixtures.upTo(PlanBuilder.directAllgather(2), 3).get(LogicalGroups.KEY);
        assertEquals(1, g.groups().size(), g::dump);
        assertEquals(List.of(0, 1), g.groups().get(0).members(), "rank 0's and rank 1's threadblock exchange chunks");
    }

    @Test
    void threadblocksWithNothingInCommonStayApartAndGroupsComeLargestFirst() {
        // tb0 and tb1 share input[0]; tb2 touches only input[1]
        Plan p = PlanBuilder.of(Collective.CUSTOM, 1).chunkFactor(2)
                .rank(0).tb().copy("input[1]", "output[1]")
                .tb().copy("input[0]", "output[0]")
                .tb().reduce("input[0]", "output[0]")
                .build();
        LogicalGroups g = LogicalAllocation.allocate(AccessAnalysis.analyse(p));
        assertEquals(2, g.groups().size(), g::dump);
        assertEquals(List.of(1, 2), g.groups().get(0).members(), "the larger group first, though created second");
        assertEquals(1, g.groups().get(0).id());
        assertEquals(List.of(0), g.groups().get(1).members());
        assertEquals(g.groupOfTb()[1], g.groupOfTb()[2]);
    }

    @Test
    void theBalancedVariantDoesNotTieReadersOfASharedReadOnlyChunk() {
        Accesses acc = AccessAnalysis.analyse(PlanBuilder.directAllgather(4));
        int paper = LogicalAllocation.allocate(acc, true).groups().size();
        int balanced = LogicalAllocation.allocate(acc, false).groups().size();
        assertEquals(1, paper, "every sender reads its rank's own chunk, so the paper's rule joins them all");
        assertEquals(4 * 3, balanced, "one group per transfer: a sender and the chunk it stores");
        assertTrue(balanced > paper);
    }
}
