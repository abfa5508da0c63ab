package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.testkit.PlanBuilder;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every operation's transfer kind, and a step's transfer as all three cost models see it. */
class TransferKindTest {
    @Test
    void everyOperationHasItsKind() {
        Map<OpKind, TransferKind> want = new EnumMap<>(OpKind.class);
        for (OpKind op : new OpKind[] {OpKind.SEND, OpKind.RECV_COPY_SEND, OpKind.RECV_REDUCE_SEND,
                OpKind.RECV_REDUCE_COPY_SEND, OpKind.PUT}) want.put(op, TransferKind.REMOTE_STORE);
        want.put(OpKind.GET, TransferKind.REMOTE_LOAD);
        want.put(OpKind.GET_REDUCE, TransferKind.REMOTE_LOAD);
        for (OpKind op : new OpKind[] {OpKind.COPY, OpKind.REDUCE, OpKind.RESIDUAL_ADD, OpKind.RECV_REDUCE_COPY}) {
            want.put(op, TransferKind.LOCAL);
        }
        want.put(OpKind.SIGNAL, TransferKind.SIGNAL);
        for (OpKind op : OpKind.values()) {
            assertEquals(want.get(op), TransferKind.of(op), op.name());
            assertEquals(want.get(op) != null && op != OpKind.SIGNAL, TransferKind.movesData(op), op.name());
        }
        assertNull(TransferKind.of(OpKind.RECV));
        assertNull(TransferKind.of(OpKind.WAIT));
        assertNull(TransferKind.of(OpKind.NOP));
    }

    @Test
    void storesAndSignalsArePostedLoadsAndCopiesAreNot() {
        assertTrue(TransferKind.REMOTE_STORE.posted);
        assertTrue(TransferKind.SIGNAL.posted);
        assertFalse(TransferKind.REMOTE_LOAD.posted);
        assertFalse(TransferKind.LOCAL.posted);
        assertFalse(TransferKind.SIGNAL.movesData);
    }

    @Test
    void aLoadReadsThePeerAndWritesItsOwnRank() {
        assertEquals(1, TransferKind.REMOTE_LOAD.srcRank(0, 1));
        assertEquals(0, TransferKind.REMOTE_LOAD.dstRank(0, 1));
        assertEquals(0, TransferKind.REMOTE_STORE.srcRank(0, 1));
        assertEquals(1, TransferKind.REMOTE_STORE.dstRank(0, 1));
        assertEquals(1, TransferKind.SIGNAL.dstRank(0, 1));
    }

    @Test
    void aStepsTransferFollowsItsOperationAndChunks() {
        Plan plan = PlanBuilder.of(Collective.ALLGATHER, 2).inplace().buffer("scratch", 2)
                .rank(0).tb().sendTo(1).recvFrom(1).send("input[0]").recv("output[1]")
                .tb().put(1, "input[0]", "output[0]").signal(1).await(1)
                .tb().get(1, "input[0]", "scratch[0]").copy("input[0]", "scratch[1]").nop()
                .rank(1).tb().sendTo(0).recvFrom(0).send("input[0]").recv("output[0]")
                .tb().signal(0).await(0)
                .build();
        StepGraph g = new StepGraph(plan);
        // rank 0: send, recv | put, signal, wait | get, copy, nop
        StepTransfer send = StepTransfer.of(g, 0);
        assertEquals(TransferKind.REMOTE_STORE, send.kind());
        assertEquals(1, send.peer());
        assertEquals(new ChunkRef(1, "output", 0, 1), send.dst(), "a send writes its receiver's chunk");
        assertNull(StepTransfer.of(g, 1), "a receive moves nothing itself");
        assertEquals(new StepTransfer(TransferKind.REMOTE_STORE, 1, g.steps[2].src(), g.steps[2].dst(), 1), StepTransfer.of(g, 2));
        assertEquals(new StepTransfer(TransferKind.SIGNAL, 1, null, null, 0), StepTransfer.of(g, 3));
        assertNull(StepTransfer.of(g, 4));
        assertEquals(TransferKind.REMOTE_LOAD, StepTransfer.of(g, 5).kind());
        assertEquals(new StepTransfer(TransferKind.LOCAL, 0, g.steps[6].src(), g.steps[6].dst(), 1), StepTransfer.of(g, 6));
        assertNull(StepTransfer.of(g, 7));
    }
}
