package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.Collective;
import dev.nunac.testkit.PlanBuilder;
import org.junit.jupiter.api.Test;

/** Pages: votes, conflicts on shared pages, and the round-robin rest. */
class PageAllocatorTest {
    /** One rank, input and output of 4 chunks of half a page each: two pages per buffer, two stacks. */
    static PageAllocator allocator(PageMap.Layout layout) {
        ChunkSpace space = new ChunkSpace(PlanBuilder.of(Collective.CUSTOM, 1).chunkFactor(4).build());
        return new PageAllocator(space, 2048, 4096, 2, new PageMap.Layout[] {layout, layout}, 1);
    }

    @Test
    void twoChunksAskingForOnePageDifferentlyGoWhereTheWorstCostIsLeast() {
        PageAllocator a = allocator(PageMap.Layout.NATURAL);
        a.vote(0, 0, -1, 0); // chunk 0 (voter 0) asks for stack 0
        a.vote(1, 1, -1, 1); // chunk 1, on the same page, for stack 1
        // voter 0 pays 10 on stack 1, voter 1 only 2 on stack 0: stack 0 costs the worst voter least
        a.resolve((voter, stack, domain) -> voter == 0 ? (stack == 0 ? 1 : 10) : (stack == 1 ? 1 : 2));
        assertEquals(0, a.stackOf(1));
        assertEquals(1, a.conflicts);
    }

    @Test
    void thePapersRuleKeepsTheFirstVote() {
        PageAllocator a = allocator(PageMap.Layout.NATURAL);
        a.vote(1, 1, -1, 1);
        a.vote(0, 0, -1, 0);
        a.firstComeFirstServed();
        assertEquals(1, a.stackOf(0));
        assertEquals(1, a.conflicts);
    }

    @Test
    void alignedChunksNeverSharePagesAndUntouchedPagesAreDealtRoundRobin() {
        PageAllocator a = allocator(PageMap.Layout.ALIGNED);
        a.vote(0, 1, -1, 0);
        a.vote(1, 0, -1, 1);
        a.firstComeFirstServed();
        assertEquals(0, a.conflicts);
        a.fillRest(1, true);
        assertEquals(2 + 4, a.untouched, "input's other two pages and all four of output's");
        assertArrayEquals(new int[] {1, 0, 0, 1}, a.maps().get(0).stack());
        assertArrayEquals(new int[] {0, 1, 0, 1}, a.maps().get(1).stack());
    }
}
