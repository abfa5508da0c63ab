package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Plans;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Messages an outside campaign found unclear, each now one positioned message in nunac's words
 * (docs/errors.md).
 */
class ClearMessagesTest {
    @TempDir
    Path dir;

    Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    static String example() {
        return TestPaths.examples().resolve("allgather-direct.msccl").toString();
    }

    /** {@code nunac check file} exits {@code exit} with one message: the file's name, then {@code message}. */
    static void checkSays(int exit, Path file, String message) {
        CliRun r = DocumentedErrorsTest.run("check", file.toString());
        assertEquals(file + message + "\n", r.err());
        assertEquals(exit, r.exit());
    }

    @Test
    void loneSurrogateInAJsonNameIsRefusedAtImport() throws Exception {
        Path j = write("s.json", Plans.ONE_SIDED_ALLGATHER.replace("\"name\": \"p\"", "\"name\": \"a\\ud800b\""));
        CliRun r = DocumentedErrorsTest.run("check", j.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().matches("\\Q" + j + "\\E:1:[0-9]+: error: \\$.name: contains the lone surrogate U\\+D800 \\(at"
                + " character 2\\); names must be printable text\n"), r.err());
    }

    @Test
    void xmlElementWithTensOfThousandsOfAttributesGetsNuncasOwnLimitMessage() throws Exception {
        StringBuilder sb = new StringBuilder("<algo");
        for (int i = 0; i < 20_000; i++) sb.append(" a").append(i).append("=\"1\"");
        checkSays(3, write("a.xml", sb.append("/>").toString()),
                ":1:1: error: element <algo> has 20000 attributes; the limit is 64 (raise it with --limit attributes=N)");
    }

    @Test
    void unknownEscapeInADslStringIsOneErrorAtTheEscape() throws Exception {
        checkSays(1, write("e.msccl", "program \"a\\x41\" collective allgather(2) {\n}\n"),
                ":1:11: error: unknown escape '\\x' in a string (a string knows \\\", \\\\, \\n and \\t)");
    }

    @Test
    void lineSeparatorInDslCodeIsShownAsItsCodePoint() throws Exception {
        checkSays(1, write("u.msccl", "program \"a\" collective allgather(2) {\n  let x = 1;\u2028\n}\n"),
                ":2:13: error: unexpected character U+2028");
    }

    @Test
    void xmlIntegersAreAsciiDigitsWithoutPlusOrSpaces() throws Exception {
        for (String v : new String[] {"+2", " 2", "2 "}) {
            Path x = write("p.xml", RangeChecksTest.xml().replace("o_chunks=\"2\"", "o_chunks=\"" + v + "\""));
            CliRun r = DocumentedErrorsTest.run("check", x.toString());
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.err().contains("error: attribute 'o_chunks' of <gpu> must be an integer, found '" + v + "'"), r.err());
        }
    }

    @Test
    void sizeOptionsNameThemselvesAndTheirMaximum() {
        CliRun big = CliRun.of(example(), "--topo", "nuna-4die", "-D", "ranks=2", "--size", "9223372036854775807", "-o",
                dir.resolve("o").toString());
        assertEquals(2, big.exit(), big.err());
        assertTrue(big.err().startsWith("nunac compile: --size: size '9223372036854775807' is too large: at most 1000000000000000"
                + " bytes (1000000GB)\n"), big.err());
        CliRun flit = CliRun.of("simulate", example(), "--topo", "nuna-4die", "-D", "ranks=2", "--flit", "0");
        assertEquals(2, flit.exit(), flit.err());
        assertTrue(flit.err().startsWith("nunac simulate: --flit: size '0' is not a positive size"), flit.err());
    }

    @Test
    void badTuneValueIsReportedAsTune() {
        CliRun r = CliRun.of(example(), "--topo", "nuna-4die", "-o", dir.resolve("o").toString(), "--tune", "ranks=" + "1".repeat(100));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("nunac: error: --tune ranks=" + "1".repeat(37) + "... (100 characters):"
                + " not an integer or boolean (out of range)\n"), r.err());
    }

    @Test
    void unreadablePlanSaysSoInNunacsWords() {
        Path mem = Path.of("/proc/self/mem");
        Assumptions.assumeTrue(Files.exists(mem), "no /proc here");
        for (String name : new String[] {"z.xml", "z.json", "z.msccl"}) {
            Path link = dir.resolve(name);
            try {
                Files.createSymbolicLink(link, mem);
            } catch (java.io.IOException e) {
                Assumptions.abort("no symbolic links here");
            }
            checkSays(3, link, ": error: cannot read: Input/output error");
        }
    }

    @Test
    void secondByteOrderMarkInJsonIsNamedAsOne() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] json = Plans.ONE_SIDED_ALLGATHER.getBytes(StandardCharsets.UTF_8);
        byte[] two = new byte[json.length + 6];
        System.arraycopy(bom, 0, two, 0, 3);
        System.arraycopy(bom, 0, two, 3, 3);
        System.arraycopy(json, 0, two, 6, json.length);
        checkSays(3, Files.write(dir.resolve("b.json"), two),
                ":1:1: error: unexpected character U+FEFF (a byte-order mark, allowed only at the start of the file)");
    }

    @Test
    void refusedGpuIsNotAlsoMissing() throws Exception {
        Path x = write("m.xml", RangeChecksTest.xml().replace("o_chunks=\"2\"", "o_chunks=\"-1\""));
        CliRun r = DocumentedErrorsTest.run("check", x.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("attribute 'o_chunks' of <gpu> must be at least 0, found -1"), r.err());
        assertTrue(!r.err().contains("is missing"), r.err());
    }

    @Test
    void hugeDslChunkIndexIsReportedAsWritten() throws Exception {
        checkSays(1, write("i.msccl", "program \"p\" collective allgather(2) {\n  chunk(0, input, 9223372036854775807).copy(1, output, 0);\n}\n"),
                ":2:12: error: index 9223372036854775807 is out of bounds for buffer 'input' of 1 chunks on rank 0");
    }

    @Test
    void executorSettingsOfAJsonPlanHaveTheExecutorsTypes() throws Exception {
        String[][] cases = {
            {"\"num_threads_per_block\": null", "$.num_threads_per_block: must be an integer, found null"},
            {"\"buffer_alignment\": \"1\"", "$.buffer_alignment: must be an integer, found string \"1\""},
            {"\"min_message_size\": -1", "$.min_message_size: must be an integer from 0 to 18446744073709551615, found integer -1"},
            {"\"max_message_size\": 18446744073709551616", "must be an integer from 0 to 18446744073709551615, found integer 18446744073709551616"},
            {"\"reuse_resources\": 1", "$.reuse_resources: must be true or false"},
        };
        for (String[] c : cases) {
            Path j = write("s.json", Plans.ONE_SIDED_ALLGATHER.replace("\"name\": \"p\",", "\"name\": \"p\", " + c[0] + ","));
            CliRun r = DocumentedErrorsTest.run("check", j.toString());
            assertEquals(1, r.exit(), c[0] + ": " + r.err());
            assertTrue(r.err().contains(c[1]), r.err());
        }
        Path ok = write("ok.json", Plans.ONE_SIDED_ALLGATHER.replace("\"name\": \"p\",", "\"name\": \"p\", \"num_threads_per_block\": 1024,"
                + " \"max_message_size\": 18446744073709551615, \"use_double_scratch_buffer\": false,"));
        assertEquals(0, DocumentedErrorsTest.run("check", ok.toString()).exit());
    }
}
