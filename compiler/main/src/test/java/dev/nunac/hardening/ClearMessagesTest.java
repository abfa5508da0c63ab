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

    static void one(int exit, String stderr, CliRun r) {
        assertEquals(stderr + "\n", r.err());
        assertEquals(exit, r.exit());
    }

    @Test
    void loneSurrogateInAJsonNameIsRefusedAtImport() throws Exception {
        Path j = write("s.json", Plans.ONE_SIDED_ALLGATHER.replace("\"name\": \"p\"", "\"name\": \"a\\ud800b\""));
        CliRun r = DocumentedErrorsTest.run("check", j.toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().matches("\\Q" + j + "\\E:1:[0-9]+: error: 'name' of the plan contains the lone surrogate U\\+D800 \\(at"
                + " character 2\\); names must be printable text\n"), r.err());
    }

    @Test
    void xmlElementWithTensOfThousandsOfAttributesGetsNuncasOwnLimitMessage() throws Exception {
        StringBuilder sb = new StringBuilder("<algo");
        for (int i = 0; i < 20_000; i++) sb.append(" a").append(i).append("=\"1\"");
        Path x = write("a.xml", sb.append("/>").toString());
        one(3, x + ":1:1: error: element <algo> has 20000 attributes; the limit is 64 (raise it with --limit attributes=N)",
                DocumentedErrorsTest.run("check", x.toString()));
    }

    @Test
    void unknownEscapeInADslStringIsOneErrorAtTheEscape() throws Exception {
        Path f = write("e.msccl", "program \"a\\x41\" collective allgather(2) {\n}\n");
        one(1, f + ":1:11: error: unknown escape '\\x' in a string (a string knows \\\", \\\\, \\n and \\t)",
                DocumentedErrorsTest.run("check", f.toString()));
    }

    @Test
    void lineSeparatorInDslCodeIsShownAsItsCodePoint() throws Exception {
        Path f = write("u.msccl", "program \"a\" collective allgather(2) {\n  let x = 1;\u2028\n}\n");
        one(1, f + ":2:13: error: unexpected character U+2028", DocumentedErrorsTest.run("check", f.toString()));
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
            one(3, link + ": error: cannot read: Input/output error", DocumentedErrorsTest.run("check", link.toString()));
        }
    }
}
