package dev.nunac.frontend.xml;

import static dev.nunac.frontend.xml.XmlText.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Buffer;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.Protocol;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The header rules of both dialects (older msccl-tools output and the newer executors' form). */
class XmlDialectTest {
    private static Plan header(String attrs, String gpuChunks) {
        return read("<algo " + attrs + ">\n"
                + "  <gpu id=\"0\" " + gpuChunks + "/>\n"
                + "  <gpu id=\"1\" " + gpuChunks + "/>\n"
                + "</algo>\n");
    }

    private static final String IO4 = "i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\"";

    /** The plan kept each of these header attributes with its value (and may keep others). */
    private static void assertKept(Plan p, Map<String, String> attributes) {
        attributes.forEach((name, value) -> assertEquals(value, p.attributes().get(name), name));
    }

    @Test
    void olderDialectWithoutSizeWindow() {
        Plan p = header("name=\"old\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" coll=\"allreduce\""
                + " inplace=\"1\"", IO4);
        assertEquals(Map.of("nchannels", "1", "nchunksperloop", "4"), p.attributes());
        assertTrue(p.inplace());
        assertEquals(PlanFormat.MSCCL_XML, p.format());
        assertEquals(1, p.instances());
    }

    @Test
    void newerDialectKeepsSizeWindow() {
        Plan p = header("name=\"new\" proto=\"LL\" nchannels=\"2\" nchunksperloop=\"4\" ngpus=\"2\" coll=\"allreduce\""
                + " inplace=\"0\" outofplace=\"1\" minBytes=\"1024\" maxBytes=\"0\"", IO4);
        assertKept(p, Map.of("outofplace", "1", "minBytes", "1024", "maxBytes", "0"));
        assertEquals(Protocol.LL, p.protocol());
    }

    @Test
    void reduceScatterBothSpellings() {
        String rest = " proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" inplace=\"0\"";
        String chunks = "i_chunks=\"4\" o_chunks=\"2\" s_chunks=\"0\"";
        Plan old = header("name=\"a\" coll=\"reduce_scatter\"" + rest, chunks);
        Plan neu = header("name=\"a\" coll=\"reducescatter\"" + rest, chunks);
        assertEquals(Collective.REDUCESCATTER, old.collective());
        assertEquals(Collective.REDUCESCATTER, neu.collective());
        assertEquals(2, old.chunkFactor(), "nchunksperloop / ngpus");
    }

    @Test
    void chunkFactorPerCollective() {
        String rest = " proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"8\" ngpus=\"2\" inplace=\"0\"";
        assertEquals(4, header("name=\"a\" coll=\"allgather\"" + rest, "i_chunks=\"4\" o_chunks=\"8\" s_chunks=\"0\"").chunkFactor());
        assertEquals(4, header("name=\"a\" coll=\"alltoall\"" + rest, "i_chunks=\"8\" o_chunks=\"8\" s_chunks=\"0\"").chunkFactor());
        assertEquals(8, header("name=\"a\" coll=\"allreduce\"" + rest, "i_chunks=\"8\" o_chunks=\"8\" s_chunks=\"0\"").chunkFactor());
    }

    @Test
    void optionalNthreadsAndExtrasAreKept() {
        Plan p = header("name=\"x\" proto=\"LL128\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" coll=\"allreduce\""
                + " inplace=\"1\" nthreads=\"512\" maxcount=\"1\" nthreadblocks=\"24\" redop=\"sum\"", IO4);
        assertKept(p, Map.of("nthreads", "512", "maxcount", "1", "nthreadblocks", "24", "redop", "sum"));
    }

    @Test
    void unknownCollectiveIsCustomAndKeepsItsName() {
        Plan p = header("name=\"x\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" coll=\"alltoallv\""
                + " inplace=\"0\"", IO4);
        assertEquals(Collective.CUSTOM, p.collective());
        assertEquals("alltoallv", p.attributes().get("coll"));
    }

    @Test
    void inPlaceFilesMayDeclareAnAliasedBufferEmpty() {
        Plan p = header("name=\"x\" proto=\"LL\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allgather\""
                + " inplace=\"1\"", "i_chunks=\"0\" o_chunks=\"2\" s_chunks=\"0\"");
        assertEquals(0, p.rank(0).bufferChunks(Buffer.INPUT));
        assertFalse(p.rank(0).buffer(Buffer.SCRATCH).isPresent(), "no scratch buffer when s_chunks is 0");
    }

    @Test
    void commentsAndPrologAreAccepted() {
        Plan p = read("<?xml version=\"1.0\"?>\n<!-- c -->\n<algo name=\"a\" proto=\"Simple\" nchannels=\"1\""
                + " nchunksperloop=\"2\" ngpus=\"1\" coll=\"allreduce\" inplace=\"0\">\n"
                + "  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"0\"><!-- x --></gpu>\n</algo>\n");
        assertEquals(1, p.ranks());
    }
}
