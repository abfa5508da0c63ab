package dev.nunac.frontend.xml;

import static dev.nunac.frontend.xml.XmlText.read;
import static dev.nunac.frontend.xml.XmlText.step;
import static dev.nunac.frontend.xml.XmlText.withSteps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.SourcePos;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One test per MSCCL-IR step type: the op it becomes and the operands it keeps (the IR keeps
 * only those the type uses). Every step reads src i[1] and dst o[2] from the document.
 */
class XmlStepTypeTest {
    private static final ChunkRef SRC = new ChunkRef(0, "input", 1, 1);
    private static final ChunkRef DST = new ChunkRef(0, "output", 2, 1);

    private static Step only(String type) {
        return read(withSteps(step(0, type))).rank(0).tb(0).steps().get(0);
    }

    private static void expect(String type, OpKind op, ChunkRef src, ChunkRef dst) {
        Step s = only(type);
        assertEquals(op, s.op());
        assertEquals(src, s.src(), "src of " + type);
        assertEquals(dst, s.dst(), "dst of " + type);
        assertEquals(-1, s.peer());
        assertEquals(new SourcePos("t.xml", 4, 7), s.pos());
    }

    @Test void send() { expect("s", OpKind.SEND, SRC, null); }

    @Test void recv() { expect("r", OpKind.RECV, null, DST); }

    @Test void recvCopySend() { expect("rcs", OpKind.RECV_COPY_SEND, null, DST); }

    @Test void recvReduceSend() { expect("rrs", OpKind.RECV_REDUCE_SEND, SRC, null); }

    @Test void recvReduceCopy() { expect("rrc", OpKind.RECV_REDUCE_COPY, SRC, DST); }

    @Test void recvReduceCopySend() { expect("rrcs", OpKind.RECV_REDUCE_COPY_SEND, SRC, DST); }

    @Test void copy() { expect("cpy", OpKind.COPY, SRC, DST); }

    @Test void reduce() { expect("re", OpKind.REDUCE, SRC, DST); }

    @Test void residualAdd() { expect("ra", OpKind.RESIDUAL_ADD, SRC, DST); }

    @Test
    void nopIsKeptWithItsDependency() {
        String xml = XmlText.HEAD
                + "  <gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\">\n"
                + "    <tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
                + step(0, "s", "i", 0, "i", 0, 1, -1, -1, 1)
                + "    </tb>\n"
                + "    <tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
                + step(0, "nop", "i", -1, "o", -1, 0, 0, 0, 0)
                + step(1, "cpy", "i", 0, "o", 0, 1, -1, -1, 0)
                + "    </tb>\n"
                + "  </gpu>\n"
                + "  <gpu id=\"1\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\"/>\n"
                + "</algo>\n";
        var tbs = read(xml).rank(0).threadblocks();
        Step nop = tbs.get(1).steps().get(0);
        assertEquals(OpKind.NOP, nop.op());
        assertNull(nop.src());
        assertNull(nop.dst());
        assertEquals(List.of(new Dep(0, 0)), nop.deps());
        assertTrue(tbs.get(0).steps().get(0).hasDep(), "hasdep=1 is kept");
        assertFalse(tbs.get(1).steps().get(1).hasDep());
        assertEquals(List.of(), tbs.get(1).steps().get(1).deps());
    }

    @Test
    void scratchOperandAndCount() {
        Step s = read(withSteps(step(0, "cpy", "s", 0, "o", 1, 2, -1, -1, 0))).rank(0).tb(0).steps().get(0);
        assertEquals(new ChunkRef(0, "scratch", 0, 2), s.src());
        assertEquals(new ChunkRef(0, "output", 1, 2), s.dst());
    }
}
