package dev.nunac.frontend.xml;

import static dev.nunac.frontend.xml.XmlText.step;
import static dev.nunac.frontend.xml.XmlText.withSteps;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Limits;
import dev.nunac.testkit.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Broken documents: exact messages, with line and column, and the kind that picks the exit code. */
class XmlMalformedTest {
    private static Outcome run(String xml) {
        return Outcome.of(() -> XmlText.read(xml));
    }

    private static void plan(String xml, String... messages) {
        Outcome o = run(xml);
        assertEquals(List.of(messages), o.messages());
        assertEquals(ErrorKind.PLAN, o.kind());
    }

    private static void input(String xml, String message) {
        Outcome o = run(xml);
        assertEquals(List.of(message), o.messages());
        assertEquals(ErrorKind.INPUT, o.kind());
    }

    @Test
    void missingAttribute() {
        plan(withSteps("      <step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"/>\n"),
                "t.xml:4:7: error: attribute 'hasdep' of <step> is missing");
    }

    @Test
    void stepIndexOutOfOrder() {
        plan(withSteps(step(0, "s") + step(2, "s")), "t.xml:5:7: error: step index 2 out of order: expected 1");
    }

    @Test
    void offsetBeyondTheBuffer() {
        plan(withSteps(step(0, "s", "i", 4, "i", 4, 1, -1, -1, 0)),
                "t.xml:4:7: error: rank 0, threadblock 0, step 0 (s): source r0:input[4] is out of bounds: input has 4 chunks on rank 0");
    }

    @Test
    void unknownStepType() {
        plan(withSteps(step(0, "d")), "t.xml:4:7: error: unknown step type 'd' (expected one of s, r, rcs, rrs, rrc, rrcs, cpy, re, nop, ra)");
    }

    @Test
    void badPeer() {
        plan(withSteps(step(0, "s")).replace("send=\"1\"", "send=\"7\""),
                "t.xml:3:5: error: rank 0, threadblock 0: send peer 7 is not a rank (0..1)");
    }

    @Test
    void peerIsItself() {
        plan(withSteps(step(0, "r")).replace("recv=\"1\"", "recv=\"0\""),
                "t.xml:3:5: error: rank 0, threadblock 0: recv peer is the rank itself (0)");
    }

    @Test
    void notAnInteger() {
        plan(withSteps(step(0, "s").replace("cnt=\"1\"", "cnt=\"one\"")),
                "t.xml:4:7: error: attribute 'cnt' of <step> must be an integer, found 'one'");
    }

    @Test
    void halfADependency() {
        plan(withSteps(step(0, "s", "i", 0, "i", 0, 1, 0, -1, 0)),
                "t.xml:4:7: error: depid and deps must both be -1 (no dependency) or both name a step, found depid=0 deps=-1");
    }

    @Test
    void badBufferLetter() {
        plan(withSteps(step(0, "cpy", "x", 0, "o", 0, 1, -1, -1, 0)),
                "t.xml:4:7: error: attribute 'srcbuf' of <step> must be i, o or s, found 'x'");
    }

    @Test
    void usedOperandWithOffsetMinusOne() {
        plan(withSteps(step(0, "r", "i", 0, "o", -1, 1, -1, -1, 0)),
                "t.xml:4:7: error: a 'r' step needs a destination, but dstoff is -1");
    }

    @Test
    void channelNotBelowNchannels() {
        plan(withSteps(step(0, "s")).replace("chan=\"0\"", "chan=\"1\""),
                "t.xml:3:5: error: chan 1 is not below nchannels (1)");
    }

    @Test
    void missingGpuAndMissingThreadblock() {
        String xml = XmlText.HEAD
                + "  <gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\">\n"
                + "    <tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"0\"/>\n"
                + "  </gpu>\n</algo>\n";
        plan(xml, "t.xml:2:3: error: gpu 0: threadblock 0 is missing", "t.xml:1:1: error: gpu 1 is missing (ngpus is 2)");
    }

    @Test
    void unknownProtocolAndMissingHeaderAttribute() {
        plan("<algo name=\"t\" proto=\"LL64\" nchannels=\"1\" ngpus=\"1\" coll=\"allreduce\" inplace=\"0\"/>\n",
                "t.xml:1:1: error: unknown protocol 'LL64' in <algo> (expected Simple, LL or LL128)",
                "t.xml:1:1: error: attribute 'nchunksperloop' of <algo> is missing");
    }

    @Test
    void wrongRootAndUnexpectedChild() {
        plan("<plan/>\n", "t.xml:1:1: error: the root element must be <algo>, found <plan>");
        plan(withSteps("      <stp/>\n"), "t.xml:4:7: error: unexpected element <stp> inside <tb> (expected <step>)");
    }

    @Test
    void strayText() {
        plan(withSteps("      hello\n"), "t.xml:4:7: error: unexpected text 'hello'");
    }

    @Test
    void notWellFormed() {
        input(withSteps(step(0, "s")).replace("    </tb>\n", ""),
                "t.xml:5:5: error: not well-formed XML: The element type \"tb\" must be terminated by the matching end-tag \"</tb>\".");
    }

    @Test
    void emptyDocument() {
        input("", "t.xml:1:1: error: not well-formed XML: Premature end of file.");
    }

    @Test
    void externalEntityIsRefused() {
        input("<?xml version=\"1.0\"?>\n<!DOCTYPE algo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<algo name=\"&xxe;\"/>\n",
                "t.xml:1:22: error: DOCTYPE declarations are not allowed (an MSCCL-IR file needs no DTD or entities)");
    }

    @Test
    void entityExpansionIsRefused() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE algo [\n <!ENTITY l0 \"lol\">\n");
        for (int i = 1; i < 10; i++) dtd.append(" <!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">\n");
        input(dtd + "]>\n<algo name=\"&l9;\"/>\n",
                "t.xml:1:1: error: DOCTYPE declarations are not allowed (an MSCCL-IR file needs no DTD or entities)");
    }

    @Test
    void undeclaredEntityIsNotWellFormed() {
        Outcome o = run("<algo name=\"&x;\"/>\n");
        assertEquals(ErrorKind.INPUT, o.kind());
        assertEquals("t.xml:1:16: error: not well-formed XML: The entity \"x\" was referenced, but not declared.", o.first());
    }

    @Test
    void elementAndAttributeLimits() {
        String xml = withSteps(step(0, "s") + step(1, "s"));
        Outcome many = Outcome.of(() -> XmlText.read(xml, Limits.DEFAULT.with("elements", 4)));
        assertEquals(ErrorKind.INPUT, many.kind());
        assertEquals("t.xml:5:7: error: more than 4 elements (raise the limit with --limit elements=N)", many.first());
        Outcome wide = Outcome.of(() -> XmlText.read(xml, Limits.DEFAULT.with("attributes", 9)));
        assertEquals(ErrorKind.INPUT, wide.kind());
        assertEquals("t.xml:1:1: error: element <algo> has 10 attributes; the limit is 9 (raise it with --limit attributes=N)",
                wide.first());
    }

    @Test
    void stepLimit() {
        Outcome o = Outcome.of(() -> XmlText.read(withSteps(step(0, "s") + step(1, "s")), Limits.DEFAULT.with("steps", 1)));
        assertEquals(ErrorKind.PLAN, o.kind());
        assertEquals("t.xml:5:7: error: more than 1 steps (raise the limit with --limit steps=N)", o.first());
    }
}
