package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.SourcePos;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class IrVerifierTest {
    private static Plan plan(List<Threadblock> rank0) {
        List<Buffer> bs = List.of(new Buffer(Buffer.INPUT, BufferKind.INPUT, 2), new Buffer(Buffer.OUTPUT, BufferKind.OUTPUT, 2));
        List<RankPlan> rps = List.of(new RankPlan(0, bs, rank0), new RankPlan(1, bs, List.of()));
        return new Plan("t", Collective.ALLTOALL, 2, 1, false, Protocol.SIMPLE, 1, rps, PlanFormat.DSL, new TreeMap<>(), SourcePos.NONE);
    }

    private static List<String> messages(Plan p) {
        return IrVerifier.verify(p).all().stream().map(Diagnostic::message).toList();
    }

    @Test
    void aWellFormedPlanHasNothingToReport() {
        Step copy = new Step(0, OpKind.COPY, new ChunkRef(0, Buffer.INPUT, 0, 1), new ChunkRef(0, Buffer.OUTPUT, 0, 1), -1, List.of(),
                false, SourcePos.NONE);
        Step send = new Step(0, OpKind.SEND, new ChunkRef(0, Buffer.INPUT, 1, 1), null, -1, List.of(new Dep(0, 0)), false, SourcePos.NONE);
        assertEquals(List.of(), messages(plan(List.of(new Threadblock(0, -1, -1, 0, List.of(copy), SourcePos.NONE),
                new Threadblock(1, 1, -1, 0, List.of(send), SourcePos.NONE)))));
    }

    /** Only the steps with a fault are described, each with every fault it has, among well-formed ones. */
    @Test
    void everyFaultOfABadStepIsReportedBesideGoodOnes() {
        Step good = new Step(0, OpKind.COPY, new ChunkRef(0, Buffer.INPUT, 0, 1), new ChunkRef(0, Buffer.OUTPUT, 0, 1), -1, List.of(),
                false, SourcePos.NONE);
        Step bad = new Step(3, OpKind.SEND, new ChunkRef(0, Buffer.INPUT, 1, 2), null, -1, List.of(new Dep(1, 0), new Dep(0, 5)), false,
                SourcePos.NONE);
        List<String> m = messages(plan(List.of(new Threadblock(0, -1, -1, 0, List.of(good), SourcePos.NONE),
                new Threadblock(1, 0, -1, 0, List.of(good, bad), SourcePos.NONE))));
        assertEquals(List.of("rank 0, threadblock 1: send peer is the rank itself (0)",
                "rank 0, threadblock 1, step 1 (s): step index 3 out of order; expected 1",
                "rank 0, threadblock 1, step 1 (s): source r0:input[1+2] is out of bounds: input has 2 chunks on rank 0",
                "rank 0, threadblock 1, step 1 (s): depends on its own threadblock",
                "rank 0, threadblock 1, step 1 (s): depends on step 5 of threadblock 0, which has 1 steps"), m);
    }
}
