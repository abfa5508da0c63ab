package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.MscclXmlExporter;
import dev.nunac.ir.Limits;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.Plans;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts, offsets and ids a plan file states at the edge of 32 bits are refused as plan errors
 * (exit 1) before anything is sized by them: never a failed allocation (exit 70), never a loop
 * over every id up to them.
 */
class RangeChecksTest {
    static final int MAX = Integer.MAX_VALUE;
    @TempDir
    Path dir;

    /** The 2-rank direct all-gather as MSCCL-IR: one threadblock per gpu, a send and a receive each. */
    static String xml() {
        return MscclXmlExporter.export(PlanLoader.load(TestPaths.examples().resolve("allgather-direct.msccl"),
                Map.of("ranks", "2"), Limits.DEFAULT));
    }

    CliRun check(String name, String text, String... more) throws Exception {
        Path f = Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
        String[] args = new String[more.length + 2];
        args[0] = "check";
        args[1] = f.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return DocumentedErrorsTest.run(args);
    }

    void expect(String message, CliRun r) {
        assertEquals(dir + "/" + message + "\n", r.err());
        assertEquals(1, r.exit());
    }

    /** The least int is the importer's mark for "already reported": as a value it is refused, never passed on. */
    @Test
    void theLeastIntIsOutOfRange() throws Exception {
        for (String attr : new String[] {"o_chunks=\"2\"", "i_chunks=\"1\"", "s_chunks=\"0\"", "nchunksperloop=\"2\"", "ngpus=\"2\""}) {
            String name = attr.substring(0, attr.indexOf('='));
            CliRun r = check(name + ".xml", xml().replace(attr, name + "=\"" + Integer.MIN_VALUE + "\""));
            assertEquals(1, r.exit(), r.err());
            org.junit.jupiter.api.Assertions.assertTrue(r.err().contains("attribute '" + name + "' of <")
                    && r.err().contains("> is out of range, found -2147483648"), r.err());
            org.junit.jupiter.api.Assertions.assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void bufferSizesPastTheChunkLimit() throws Exception {
        tooManyChunks("o.xml", 4294967294L, xml().replace("o_chunks=\"2\"", "o_chunks=\"" + MAX + "\""));
        tooManyChunks("i.xml", 4294967295L, xml().replace("i_chunks=\"1\"", "i_chunks=\"" + MAX + "\""));
        tooManyChunks("s.xml", 4294967298L, xml().replace("s_chunks=\"0\"", "s_chunks=\"" + MAX + "\""));
        // In place, the input lies in the output at rank * chunk factor: a huge nchunksperloop reaches far past it.
        tooManyChunks("n.xml", 1073741826L, xml().replace("nchunksperloop=\"2\"", "nchunksperloop=\"" + (MAX - 1) + "\""));
        tooManyChunks("j.json", 2147483649L, Plans.ONE_SIDED_ALLGATHER.replaceFirst("\"input_chunks\": 1", "\"input_chunks\": " + MAX));
        tooManyChunks("k.json", 2000000004L, Plans.ONE_SIDED_ALLGATHER.replace("\"scratch_chunks\": 0", "\"scratch_chunks\": 1000000000"));
        // The limit can be raised; below it the plan checks as before.
        assertEquals(0, check("ok.xml", xml().replace("s_chunks=\"0\"", "s_chunks=\"100\""), "--limit", "chunks=300").exit());
    }

    /** The plan in {@code text}, written as {@code file}, is refused for holding {@code chunks} chunks on its 2 ranks. */
    private void tooManyChunks(String file, long chunks, String text) throws Exception {
        expect(file + ":1:1: error: the plan's buffers hold " + chunks + " chunks on its 2 ranks; the limit is 4194304 (raise it with"
                + " --limit chunks=N)", check(file, text));
    }

    @Test
    void offsetsAndCountsThatWouldOverflowAreOutOfBounds() throws Exception {
        expect("a.xml:4:7: error: rank 0, threadblock 0, step 0 (s): source r0:input[2147483647] is out of bounds: input has 1 chunks"
                + " on rank 0", check("a.xml", xml().replaceFirst("srcoff=\"0\"", "srcoff=\"" + MAX + "\"")));
        expect("b.xml:5:7: error: rank 0, threadblock 0, step 1 (r): destination r0:output[2147483647] is out of bounds: output has"
                + " 2 chunks on rank 0", check("b.xml", xml().replaceFirst("dstoff=\"1\"", "dstoff=\"" + MAX + "\"")));
        String index = Plans.ONE_SIDED_ALLGATHER.replaceFirst("\"type\": \"i\", \"index\": 0", "\"type\": \"i\", \"index\": " + MAX);
        expect("c.json:7:1: error: rank 0, threadblock 0, step 0 (put): source r0:input[2147483647] is out of bounds: input has 1"
                + " chunks on rank 0", check("c.json", index));
    }

    @Test
    void threadblockIdPastTheLimitIsRefusedAtOnce() throws Exception {
        expect("t.xml:3:5: error: gpu 0: threadblock id 2000000000 is past the limit of 65536 threadblocks (raise the limit with"
                + " --limit threadblocks=N)", check("t.xml", xml().replaceFirst("<tb id=\"0\"", "<tb id=\"2000000000\"")));
        // Below the limit, the gap is one message, not one per missing id.
        expect("u.xml:2:3: error: gpu 0: threadblocks 0..59999 are missing",
                check("u.xml", xml().replaceFirst("<tb id=\"0\"", "<tb id=\"60000\"")));
    }
}
