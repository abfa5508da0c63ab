package dev.nunac.frontend.xml;

import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/** Small MSCCL-IR documents for tests: a 2-rank header and a one-threadblock body on rank 0. */
final class XmlText {
    static final String HEAD = "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\""
            + " coll=\"allreduce\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n";

    private XmlText() {}

    static Plan read(String xml) {
        return read(xml, Limits.DEFAULT);
    }

    static Plan read(String xml, Limits limits) {
        return MscclXmlImporter.read("t.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), limits);
    }

    /** A document whose rank 0 has one threadblock (send 1, recv 1) holding {@code steps}. */
    static String withSteps(String steps) {
        return HEAD
                + "  <gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"2\">\n"
                + "    <tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
                + steps
                + "    </tb>\n"
                + "  </gpu>\n"
                + "  <gpu id=\"1\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"2\">\n"
                + "  </gpu>\n"
                + "</algo>\n";
    }

    static String step(int s, String type, String src, int srcoff, String dst, int dstoff, int cnt, int depid, int deps,
                       int hasdep) {
        return String.format(java.util.Locale.ROOT, "      <step s=\"%d\" type=\"%s\" srcbuf=\"%s\" srcoff=\"%d\" dstbuf=\"%s\""
                + " dstoff=\"%d\" cnt=\"%d\" depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
                s, type, src, srcoff, dst, dstoff, cnt, depid, deps, hasdep);
    }

    static String step(int s, String type) {
        return step(s, type, "i", 1, "o", 2, 1, -1, -1, 0);
    }
}
