package dev.nunac.passes.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.passes.Fixtures;
import dev.nunac.testkit.PlanBuilder;
import org.junit.jupiter.api.Test;

/** What each threadblock touches, moves and talks to; which chunks are shared read-only. */
class AccessAnalysisTest {
    @Test
    void eachThreadblockListsItsLocalAndRemoteChunksAndWhatItMoves() {
        // in place: input[0] of rank r is output[r]; a send's chunk lands where its receiver stores it
        Plan p = PlanBuilder.directAllgather(2);
        assertEquals("""
                r0 tb0 peer 1 moved 2 local r0:output[0] r0:output[1] remote r1:output[0]
                r1 tb0 peer 0 moved 2 local r1:output[0] r1:output[1] remote r0:output[1]
                """, Fixtures.accesses(Fixtures.upTo(p, 2)).dump());
    }

    @Test
    void movedCountsTheChunksOfEveryDataStep() {
        Plan p = PlanBuilder.of(Collective.CUSTOM, 2).chunkFactor(4)
                .rank(0).tb().sendTo(1).send("input[0+3]").copy("input[3]", "output[3]").nop()
                .rank(1).tb().recvFrom(0).recv("output[0+3]")
                .build();
        Accesses a = AccessAnalysis.analyse(p);
        assertEquals(4, a.threadblocks().get(0).moved(), "three sent, one copied, the nop nothing");
        assertEquals(3, a.threadblocks().get(1).moved());
        assertEquals(0, a.threadblocks().get(1).moves().length, "a receive does not move the chunks it lands in");
        assertEquals(0, a.threadblocks().get(1).peer(), "a receiver's peer is its recv peer");
    }

    @Test
    void aOneSidedThreadblocksPeerIsTheRankItPutsTo() {
        Accesses a = AccessAnalysis.analyse(PlanBuilder.oneSidedAllgather(3));
        assertEquals(1, a.threadblocks().get(0).peer());
        assertEquals(2, a.threadblocks().get(1).peer());
        assertEquals(1, a.threadblocks().get(0).remote().length, "the put's destination on the peer");
    }

    @Test
    void aChunkReadByTwoThreadblocksAndWrittenByNoneIsSharedReadOnly() {
        // three ranks: each rank's own chunk is sent to two peers by two threadblocks
        Accesses three = AccessAnalysis.analyse(PlanBuilder.directAllgather(3));
        int own = three.space().id(0, "output", 0);
        assertTrue(three.sharedReadOnly()[own]);
        assertFalse(three.sharedReadOnly()[three.space().id(0, "output", 1)], "received into, so written");
        Accesses two = AccessAnalysis.analyse(PlanBuilder.directAllgather(2));
        assertFalse(two.sharedReadOnly()[two.space().id(0, "output", 0)], "one reader only");
    }
}
