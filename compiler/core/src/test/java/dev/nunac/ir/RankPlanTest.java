package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankPlanTest {
    @Test
    void buffersAreFoundByNameAndTheListStaysAPlainUnmodifiableCopy() {
        List<Buffer> bs = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) bs.add(new Buffer("b" + i, BufferKind.SCRATCH, 1 + i % 3));
        bs.add(new Buffer("b7", BufferKind.SCRATCH, 9)); // a second of one name: the first is the one found
        RankPlan rp = new RankPlan(0, bs, List.of());
        bs.clear();
        assertEquals(20_001, rp.buffers().size());
        assertEquals(1 + 19_999 % 3, rp.bufferChunks("b19999"));
        assertEquals(1 + 7 % 3, rp.bufferChunks("b7"));
        assertEquals(0, rp.bufferChunks("input"));
        assertTrue(rp.buffer("nothing").isEmpty());
        assertThrows(UnsupportedOperationException.class, () -> rp.buffers().add(new Buffer("x", BufferKind.SCRATCH, 1)));
        assertThrows(NullPointerException.class, () -> new RankPlan(0, java.util.Arrays.asList((Buffer) null), List.of()));
        RankPlan same = new RankPlan(0, List.copyOf(rp.buffers()), List.of());
        assertEquals(rp, same);
        assertEquals(rp.hashCode(), same.hashCode());
        assertEquals(List.copyOf(rp.buffers()), rp.buffers());
    }
    @Test
    void theThreadblockListIsAnUnmodifiableCopyThatKnowsItsStepCount() {
        Step copy = new Step(0, OpKind.COPY, new ChunkRef(0, Buffer.INPUT, 0, 1), new ChunkRef(0, Buffer.OUTPUT, 0, 1), -1, List.of(),
                false, dev.nunac.diag.SourcePos.NONE);
        List<Threadblock> tbs = new ArrayList<>();
        tbs.add(new Threadblock(0, -1, -1, 0, List.of(copy, copy.withIndex(1)), dev.nunac.diag.SourcePos.NONE));
        tbs.add(new Threadblock(1, -1, -1, 0, List.of(copy), dev.nunac.diag.SourcePos.NONE));
        RankPlan rp = new RankPlan(0, List.of(), tbs);
        tbs.clear();
        assertEquals(2, rp.threadblocks().size());
        assertEquals(3, rp.stepCount());
        assertEquals(0, new RankPlan(0, List.of(), List.of()).stepCount());
        assertThrows(UnsupportedOperationException.class, () -> rp.threadblocks().remove(0));
        assertThrows(NullPointerException.class, () -> new RankPlan(0, List.of(), java.util.Arrays.asList((Threadblock) null)));
        RankPlan same = new RankPlan(0, List.of(), List.copyOf(rp.threadblocks()));
        assertEquals(rp, same);
        assertEquals(rp.hashCode(), same.hashCode());
        assertEquals(3, new RankPlan(1, List.of(), rp.threadblocks()).stepCount());
    }
}
