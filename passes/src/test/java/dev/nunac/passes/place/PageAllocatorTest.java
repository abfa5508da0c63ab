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

    /** The allocator after the votes {chunk, stack} in order, each chunk its own voter, in no domain. */
    static PageAllocator voted(PageMap.Layout layout, int[]... votes) {
        PageAllocator a = allocator(layout);
        for (int[] v : votes) a.vote(v[0], v[1], -1, v[0]);
        return a;
    }

    /** The same votes, their conflicts settled by the paper's rule: the first vote keeps the page. */
    static PageAllocator firstComeFirstServed(PageMap.Layout layout, int[]... votes) {
        PageAllocator a = voted(layout, votes);
        a.firstComeFirstServed();
        return a;
    }

    @Test
    void twoChunksAskingForOnePageDifferentlyGoWhereTheWorstCostIsLeast() {
        // chunk 0 (voter 0) asks for stack 0, chunk 1, on the same page, for stack 1
        PageAllocator a = voted(PageMap.Layout.NATURAL, new int[] {0, 0}, new int[] {1, 1});
        // voter 0 pays 10 on stack 1, voter 1 only 2 on stack 0: stack 0 costs the worst voter least
        a.resolve((voter, stack, domain) -> voter == 0 ? (stack == 0 ? 1 : 10) : (stack == 1 ? 1 : 2));
        assertEquals(0, a.stackOf(1));
        assertEquals(1, a.conflicts);
    }

    @Test
    void thePapersRuleKeepsTheFirstVote() {
        PageAllocator a = firstComeFirstServed(PageMap.Layout.NATURAL, new int[] {1, 1}, new int[] {0, 0});
        assertEquals(1, a.stackOf(0));
        assertEquals(1, a.conflicts);
    }

    @Test
    void alignedChunksNeverSharePagesAndUntouchedPagesAreDealtRoundRobin() {
        PageAllocator a = firstComeFirstServed(PageMap.Layout.ALIGNED, new int[] {0, 1}, new int[] {1, 0});
        assertEquals(0, a.conflicts);
        a.fillRest(1, true);
        assertEquals(2 + 4, a.untouched, "input's other two pages and all four of output's");
        assertArrayEquals(new int[] {1, 0, 0, 1}, a.maps().get(0).stack());
        assertArrayEquals(new int[] {0, 1, 0, 1}, a.maps().get(1).stack());
    }
}
