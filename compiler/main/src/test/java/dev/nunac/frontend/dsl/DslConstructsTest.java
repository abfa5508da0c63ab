package dev.nunac.frontend.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.frontend.SourceText;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferLayout;
import dev.nunac.ir.Collective;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.Limits;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Protocol;
import dev.nunac.passes.check.CheckPass;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One test per language construct, on small programs. */
class DslConstructsTest {
    static Plan parse(String text) {
        return parse(text, Map.of());
    }

    static Plan parse(String text, Map<String, String> defines) {
        return DslFrontEnd.parse(new SourceText("t.msccl", text), defines, Limits.DEFAULT);
    }

    static void assertChecks(Plan p) {
        Diagnostics d = new Diagnostics();
        CheckPass.check(p, d);
        assertFalse(d.hasErrors(), d.all().toString());
    }

    @Test
    void headerSetsCollectiveShapeProtocolAndInstances() {
        Plan p = parse("program \"x\" collective alltoall(4, chunk_factor = 2) protocol LL128 instances 3 { }");
        assertEquals("x", p.name());
        assertEquals(Collective.ALLTOALL, p.collective());
        assertEquals(4, p.ranks());
        assertEquals(2, p.chunkFactor());
        assertEquals(3, p.instances());
        assertEquals(Protocol.LL128, p.protocol());
        assertEquals(4 * 2 * 3, p.rank(0).bufferChunks("input"));
    }

    @Test
    void paramsHaveDefaultsThatDefinesOverride() {
        String src = "param ranks = 2; param k = ranks * 3; program \"x\" collective allreduce(ranks, chunk_factor = k) { }";
        assertEquals(6, parse(src).chunkFactor());
        Plan p = parse(src, Map.of("ranks", "4"));
        assertEquals(4, p.ranks());
        assertEquals(12, p.chunkFactor());
    }

    @Test
    void crossRankCopyIsASendAndARecv() {
        Plan p = parse("program \"x\" collective allgather(2, inplace = true) {"
                + " chunk(0, input, 0).copy(1, output, 0); chunk(1, input, 0).copy(0, output, 1); }");
        assertEquals(OpKind.SEND, p.rank(0).tb(0).steps().get(0).op());
        assertEquals(OpKind.RECV, p.rank(0).tb(0).steps().get(1).op());
        assertEquals(1, p.rank(0).tb(0).sendPeer());
        assertChecks(p);
    }

    @Test
    void localCopyAndLocalReduce() {
        Plan p = parse("program \"x\" collective custom(1) { buffer input[2]; buffer output[1];"
                + " chunk(0, input, 0).copy(0, output, 0); chunk(0, output, 0).reduce(chunk(0, input, 1)); }");
        assertEquals(OpKind.COPY, p.rank(0).tb(0).steps().get(0).op());
        assertEquals(OpKind.REDUCE, p.rank(0).tb(0).steps().get(1).op());
        assertChecks(p);
    }

    @Test
    void remoteReduceIsSendPlusRecvReduceCopy() {
        Plan p = parse("program \"x\" collective custom(2) { buffer input[1]; buffer output[1];"
                + " chunk(0, input, 0).reduce(chunk(1, input, 0)); }");
        assertEquals(OpKind.SEND, p.rank(1).tb(0).steps().get(0).op());
        assertEquals(OpKind.RECV_REDUCE_COPY, p.rank(0).tb(0).steps().get(0).op());
    }

    @Test
    void oneSidedPutGetSignalWait() {
        Plan p = parse("program \"x\" collective allgather(2, inplace = true) {"
                + " chunk(0, input, 0).put(1, output, 0, tb = 0); signal(0, 1, tb = 0); wait(1, 0, tb = 0);"
                + " chunk(1, output, 0).get(0, output, 1, tb = 0); }");
        // rank 1 gets rank 0's chunk... no: rank 1 reads its own slot 0 from rank 0's output[1]
        assertEquals(OpKind.PUT, p.rank(0).tb(0).steps().get(0).op());
        assertEquals(1, p.rank(0).tb(0).steps().get(0).peer());
        assertEquals(1, p.rank(0).tb(0).steps().get(0).dst().rank());
        assertEquals(OpKind.SIGNAL, p.rank(0).tb(0).steps().get(1).op());
        assertEquals(OpKind.WAIT, p.rank(1).tb(0).steps().get(0).op());
        assertEquals(OpKind.GET, p.rank(1).tb(0).steps().get(1).op());
    }

    @Test
    void putBasedAllGatherChecks() {
        Plan p = parse("param n = 4; program \"x\" collective allgather(n, inplace = true) {"
                + " for r in 0 .. n { for q in 0 .. n { if (q != r) { chunk(r, input, 0).put(q, output, r, tb = q); } } } }");
        assertChecks(p);
    }

    @Test
    void forWithStepLetIfElseAndArithmetic() {
        Plan p = parse("program \"x\" collective custom(8) { buffer input[1]; buffer output[1];"
                + " for r in 0 .. 8 step 2 { let next = (r + 1) % 8;"
                + "   if (r / 2 % 2 == 0 && !(r == 6)) { chunk(r, input, 0).copy(next, output, 0); }"
                + "   else if (r == 2) { chunk(r, input, 0).copy(next, output, 0, ch = 1); }"
                + "   else { chunk(r, input, 0).copy(next, output, 0, ch = 2); } } }");
        assertEquals(1, p.rank(1).tb(0).steps().size());
        assertEquals(0, p.rank(1).tb(0).channel());
        assertEquals(1, p.rank(3).tb(0).channel());
        assertEquals(2, p.rank(7).tb(0).channel());
    }

    @Test
    void negativeStepLoopsDown() {
        Plan p = parse("program \"x\" collective custom(4) { buffer input[1]; buffer output[4];"
                + " for r in 3 .. 0 step -1 { chunk(r, input, 0).copy(0, output, r); } }");
        // one recv peer per threadblock: three threadblocks, created in loop order 3, 2, 1
        assertEquals(3, p.rank(0).threadblocks().size());
        assertEquals(3, p.rank(0).tb(0).recvPeer());
        assertEquals(1, p.rank(0).tb(2).recvPeer());
    }

    @Test
    void divisionAndModuloFloorTowardsMinusInfinity() {
        Plan p = parse("program \"x\" collective custom(4) { buffer input[1]; buffer output[4];"
                + " chunk((0 - 1) % 4, input, 0).copy(0, output, (0 - 7) / 4 + 2); }");
        assertEquals(3, p.rank(0).tb(0).recvPeer());
        assertEquals(0, p.rank(0).tb(0).steps().get(0).dst().index());
    }

    @Test
    void conditionalExpression() {
        Plan p = parse("param n = 3; program \"x\" collective allreduce(n, chunk_factor = n > 2 ? 5 : 1) { }");
        assertEquals(5, p.chunkFactor());
    }

    @Test
    void commentsAndUnderscoredNumbers() {
        Plan p = parse("// line\n/* block\n comment */ program \"x\" collective allreduce(1_0) { }");
        assertEquals(10, p.ranks());
    }

    @Test
    void namedScratchBuffers() {
        Plan p = parse("program \"x\" collective allgather(2, inplace = true) { buffer tmp[2];"
                + " chunk(0, input, 0).copy(1, tmp, 0); chunk(1, tmp, 0).copy(1, output, 0);"
                + " chunk(1, input, 0).copy(0, tmp, 1); chunk(0, tmp, 1).copy(0, output, 1); }");
        assertEquals(2, p.rank(0).bufferChunks("tmp"));
        assertChecks(p);
    }

    @Test
    void chunkCountCopiesSeveralChunks() {
        Plan p = parse("program \"x\" collective custom(2) { buffer input[4]; buffer output[4];"
                + " chunk(0, input, 1, 3).copy(1, output, 0); }");
        assertEquals(3, p.rank(0).tb(0).steps().get(0).src().count());
    }

    @Test
    void threadblockAndChannelHints() {
        Plan p = parse("program \"x\" collective custom(2) { buffer input[1]; buffer output[1];"
                + " chunk(0, input, 0).copy(1, output, 0, sendtb = 5, recvtb = 2, ch = 3); }");
        // ids are renumbered densely in hint order; the channel is kept
        assertEquals(1, p.rank(0).threadblocks().size());
        assertEquals(3, p.rank(0).tb(0).channel());
        assertEquals(3, p.rank(1).tb(0).channel());
    }

    @Test
    void automaticAssignmentKeepsOnePeerPerThreadblock() {
        Plan p = parse("param n = 4; program \"x\" collective allgather(n, inplace = true) {"
                + " for r in 0 .. n { for q in 0 .. n { if (q != r) { chunk(r, input, 0).copy(q, output, r); } } } }");
        for (var rp : p.rankPlans()) {
            assertEquals(3, rp.threadblocks().size());
            for (var t : rp.threadblocks()) assertTrue(t.sendPeer() >= 0 && t.recvPeer() >= 0);
        }
        assertChecks(p);
    }

    @Test
    void dependenciesAreInferredAcrossThreadblocks() {
        // rank 1 receives chunk 0 on one threadblock and forwards it on another: RAW dependency
        Plan p = parse("program \"x\" collective custom(3) { buffer input[1]; buffer output[1];"
                + " chunk(0, input, 0).copy(1, output, 0, recvtb = 0); chunk(1, output, 0).copy(2, output, 0, sendtb = 1); }");
        var fwd = p.rank(1).tb(1).steps().get(0);
        assertEquals(OpKind.SEND, fwd.op());
        assertEquals("[tb0.0]", fwd.deps().toString());
        assertTrue(p.rank(1).tb(0).steps().get(0).hasDep());
    }

    @Test
    void instancesReplicateThreadblocksAndInterleaveChunks() {
        Plan p = parse("program \"x\" collective allgather(2, inplace = true) instances 2 {"
                + " chunk(0, input, 0).copy(1, output, 0, sendtb = 0, recvtb = 0);"
                + " chunk(1, input, 0).copy(0, output, 1, sendtb = 0, recvtb = 0); }");
        assertEquals(2, p.rank(0).threadblocks().size());
        assertEquals(1, p.rank(0).tb(1).channel());
        assertEquals(4, p.rank(0).bufferChunks("output"));
        assertChecks(p);
        String ir = IrPrinter.print(p);
        assertTrue(ir.contains("instances 2"), ir);
    }

    @Test
    void defineMustBeANumberOrBoolean() {
        CompileException e = assertThrows(CompileException.class,
                () -> parse("param n = 2; program \"x\" collective allreduce(n) { }", Map.of("n", "lots")));
        assertEquals(ErrorKind.USAGE, e.kind());
        assertEquals("nunac: error: -D n=lots: not an integer or boolean", e.diagnostics().get(0).format());
    }

    @Test
    void nestingLimitStopsDeepInputs() {
        String deep = "(".repeat(300) + "1" + ")".repeat(300);
        CompileException e = assertThrows(CompileException.class,
                () -> parse("program \"x\" collective allreduce(" + deep + ") { }"));
        assertTrue(e.diagnostics().get(0).message().startsWith("nesting deeper than 256 levels"), e.getMessage());
    }

    @Test
    void inPlaceAllToAllWritesItsOutputOverItsInput() {
        // MSCCL++'s in-place all-to-all: output[p] is input[p], so each rank stages what it receives
        // and overwrites its input slot only after sending what was there.
        Plan p = parse("param n = 4; program \"x\" collective alltoall(n, inplace = true) { buffer stage[n];"
                + " for r in 0 .. n { for q in 0 .. n { if (q != r) { chunk(r, input, q).copy(q, stage, r, sendtb = q, recvtb = r); } } }"
                + " for q in 0 .. n { for r in 0 .. n { if (q != r) { chunk(q, stage, r).copy(q, output, r, tb = r); } } } }");
        assertChecks(p);
        assertEquals(Buffer.INPUT, BufferLayout.resolve(p, 1, Buffer.OUTPUT, 2).buffer());
    }
}
