package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.frontend.xml.MscclXmlImporter;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.testkit.Outcome;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DSL → XML → IR against DSL → IR. What differs by design, and is left out of the comparison:
 * the header (format; chunk_factor and instances, since XML has instances folded in; the XML
 * header values kept as attributes), the nop steps that carry a step's extra dependencies in XML
 * (folded back before comparing), and scratch buffer names (XML has one {@code s} buffer).
 */
class MscclXmlExporterTest {
    static Plan dsl(String src) {
        return DslFrontEnd.parse(new SourceText("t.msccl", src), Map.of(), Limits.DEFAULT);
    }

    static Plan viaXml(Plan p) {
        String xml = MscclXmlExporter.export(p);
        return MscclXmlImporter.read("t.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), Limits.DEFAULT);
    }

    static final String RING = """
            param ranks = 4;
            program "ring" collective allreduce(ranks, chunk_factor = ranks, inplace = true) protocol LL {
              for i in 0 .. ranks {
                for s in 1 .. ranks {
                  chunk((i + s) % ranks, input, i).reduce(chunk((i + s - 1) % ranks, input, i));
                }
                for s in 0 .. ranks - 1 {
                  chunk((i + ranks - 1 + s) % ranks, input, i).copy((i + s) % ranks, input, i);
                }
              }
            }
            """;

    @Test
    void exampleAllgatherRoundTrips() throws Exception {
        Path ex = dev.nunac.testing.Repo.root().resolve("examples/allgather-direct.msccl");
        Plan p = dsl(Files.readString(ex));
        Plan back = viaXml(p);
        assertEquals(IrCompare.body(p), IrCompare.body(back).replace("t.xml", "t.msccl"));
        assertEquals(p.chunkFactor(), back.chunkFactor());
        assertCheck(back);
    }

    @Test
    void ringAllreduceWithDependenciesRoundTrips() {
        Plan p = dsl(RING);
        assertCheck(p);
        Plan back = viaXml(p);
        assertEquals(IrCompare.body(p), IrCompare.body(IrCompare.foldNops(back)));
        assertCheck(back);
    }

    @Test
    void instancesAreFoldedIntoTheChunkFactor() {
        Plan p = dsl(RING.replace("protocol LL", "protocol LL instances 2"));
        Plan back = viaXml(p);
        assertEquals(p.effectiveChunkFactor(), back.chunkFactor());
        assertEquals(1, back.instances());
        assertEquals(IrCompare.body(p), IrCompare.body(IrCompare.foldNops(back)));
        assertCheck(back);
    }

    @Test
    void extraDependenciesBecomeNopsAndNamedScratchBuffersMerge() {
        Plan p = dsl("""
                program "s" collective allgather(2, chunk_factor = 1, inplace = false) protocol Simple {
                  buffer a[1];
                  buffer b[1];
                  chunk(0, input, 0).copy(0, a, 0, tb = 0);
                  chunk(0, input, 0).copy(0, b, 0, tb = 1);
                  chunk(0, a, 0).reduce(chunk(0, b, 0), tb = 2);
                  chunk(0, a, 0).copy(0, output, 0, tb = 2);
                  chunk(0, output, 0).copy(1, output, 0);
                  chunk(1, input, 0).copy(1, output, 1);
                  chunk(1, input, 0).copy(0, output, 1);
                }
                """);
        String xml = MscclXmlExporter.export(p);
        assertTrue(xml.contains("<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"2\">"), xml);
        assertTrue(xml.contains("type=\"cpy\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"s\" dstoff=\"1\""), "b follows a in s: " + xml);
        assertTrue(xml.contains("type=\"nop\""), xml);
        Plan back = viaXml(p);
        String renamed = IrCompare.body(p).replace("buffer a 1\n  buffer b 1", "buffer scratch 2")
                .replace("a[0]", "scratch[0]").replace("b[0]", "scratch[1]");
        assertEquals(renamed, IrCompare.body(IrCompare.foldNops(back)));
    }

    @Test
    void oneSidedPlansCannotBeExported() {
        Plan p = dsl("""
                program "p" collective allgather(2, chunk_factor = 1, inplace = false) protocol Simple {
                  chunk(0, input, 0).put(1, output, 0);
                }
                """);
        Outcome o = Outcome.of(() -> MscclXmlExporter.export(p));
        assertEquals(ErrorKind.PLAN, o.kind());
        assertEquals("t.msccl:2:22: error: rank 0 threadblock 0 step 0: MSCCL-IR XML has no one-sided 'put' step, so this"
                + " plan cannot be exported to it", o.first());
    }

    static void assertCheck(Plan p) {
        Diagnostics d = new Diagnostics();
        CheckPass.check(p, d);
        assertEquals(java.util.List.of(), d.all());
    }
}
