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
}
