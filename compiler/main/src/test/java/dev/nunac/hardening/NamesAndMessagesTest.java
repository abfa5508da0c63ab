package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Plans;
import dev.nunac.testing.TestPaths;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names with control characters are refused where they are read; whatever else a message
 * echoes is escaped and cut short; the parsers' advice about their own settings never shows;
 * bad bytes, byte-order marks, -D and digits behave the same in every format.
 */
class NamesAndMessagesTest {
    @TempDir
    Path dir;

    static String example() {
        return TestPaths.examples().resolve("allgather-direct.msccl").toString();
    }

    Path write(String name, String text) throws Exception {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    Path write(String name, byte[] bytes) throws Exception {
        return Files.write(dir.resolve(name), bytes);
    }

    static String xml() {
        return RangeChecksTest.xml();
    }

    static CliRun check(Path f, String... more) {
        String[] args = new String[more.length + 2];
        args[0] = "check";
        args[1] = f.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return DocumentedErrorsTest.run(args);
    }

    static void expect(int exit, String stderr, CliRun r) {
        assertEquals(stderr + "\n", r.err());
        assertEquals(exit, r.exit());
    }

    @Test
    void controlCharactersInNamesAreRefusedWhereTheyAreRead() throws Exception {
        Path x = write("n.xml", xml().replace("name=\"allgather_direct\"", "name=\"a&#10;n.xml:1:1: error: forged\""));
        expect(1, x + ":1:1: error: the plan name (attribute 'name' of <algo>) contains the control character U+000A (at character 2);"
                + " names must be printable text", check(x));
        Path kept = write("k.xml", xml().replace("name=\"allgather_direct\"", "name=\"ok\" redop=\"s&#9;um\""));
        expect(1, kept + ":1:1: error: attribute 'redop' of <algo> contains the control character U+0009 (at character 2); names must"
                + " be printable text", check(kept));
        Path j = write("n.json", Plans.ONE_SIDED_ALLGATHER.replace("\"name\": \"p\"", "\"name\": \"p\\u0000q\""));
        expect(1, j + ":1:10: error: $.name: contains the control character U+0000 (at character 2); names must be"
                + " printable text", check(j));
        Path d = write("n.msccl", Files.readString(Path.of(example()), StandardCharsets.UTF_8)
                .replace("\"allgather_direct\"", "\"all\\ngather\""));
        expect(1, d + ":10:9: error: the plan name contains the control character U+000A (at character 4); names must be printable"
                + " text", check(d));
    }

    /** Text from the command line or a topology spec reaches stderr escaped and cut, whatever path echoes it. */
    @Test
    void commandLineTextCannotForgeALineOrFloodTheTerminal() throws Exception {
        Path plan = TestPaths.examples().resolve("allgather-direct.msccl");
        for (String[] args : List.of(new String[] {plan.toString(), "--topo", "nuna-4die", "--policy", "ua\nFORGED: error: x"},
                new String[] {plan.toString(), "--topo", "nuna-4die", "--emit", "svg\u001B[2J"},
                new String[] {"check", plan.toString(), "--limit", "steps=" + "1".repeat(100_000)},
                new String[] {plan.toString(), "--topo", "nuna-4die", "--size", "9".repeat(100_000) + "XB"},
                new String[] {"frobnicate\rFORGED"})) {
            CliRun r = DocumentedErrorsTest.run(args);
            assertEquals(2, r.exit(), r.err());
            String[] lines = r.err().split("\n");
            assertEquals(2, lines.length, r.err());
            assertTrue(lines[1].startsWith("Try 'nunac help"), r.err());
            assertTrue(lines[0].chars().noneMatch(c -> c < 0x20), r.err());
            assertTrue(lines[0].length() < 400, () -> r.err().substring(0, 200));
        }
    }

    @Test
    void runtimeOptionsEchoedByTheRuntimeCannotForgeALine() throws Exception {
        // the native runtime names the option it refuses; the CLI prints its message as one line
        Path plan = TestPaths.examples().resolve("allgather-direct.msccl");
        CliRun r = DocumentedErrorsTest.run("run", plan.toString(), "--topo", "nuna-4die", "-D", "ranks=2", "--backend", "host",
                "--runtime-options", "a=1\nFORGED: error: b");
        assertEquals(4, r.exit(), r.err());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().startsWith("nunac run: unknown option 'a=1\\nFORGED:'"), r.err());
    }

    @Test
    void anEscapedBackslashBeforeAnNIsNotANewline() throws Exception {
        // "a\\nb" is a, a backslash, n, b: printable, and so a valid name
        Path d = write("b.msccl", "program \"a\\\\nb\" collective allgather(2) { }\n");
        CliRun r = DocumentedErrorsTest.run("ir", d.toString());
        assertTrue(r.out().startsWith("plan \"a\\nb\"\n"), r.out() + r.err());
    }

    @Test
    void echoedTextIsEscapedAndCutShort() throws Exception {
        String digits = "9".repeat(100_000);
        Path x = write("d.xml", xml().replaceFirst("i_chunks=\"1\"", "i_chunks=\"" + digits + "\""));
        CliRun r = check(x);
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith(x + ":2:3: error: attribute 'i_chunks' of <gpu> must be an integer, found '"
                + "9".repeat(37) + "... (100000 characters)'\n"), r.err());
        Path nl = write("nl.xml", xml().replaceFirst("i_chunks=\"1\"", "i_chunks=\"1&#10;x.xml:1:1: error: forged\""));
        assertTrue(check(nl).err().startsWith(nl + ":2:3: error: attribute 'i_chunks' of <gpu> must be an integer, found"
                + " '1\\nx.xml:1:1: error: forged'\n"));
        Path lit = write("d.msccl", "param x = " + digits + ";\nprogram \"p\" collective allgather(2) { }\n");
        expect(1, lit + ":1:11: error: integer literal " + "9".repeat(37) + "... (100000 characters) is too large", check(lit));
        Path s = write("s.json", Plans.ONE_SIDED_ALLGATHER.replaceFirst("\"input_chunks\": 1", "\"input_chunks\": \"" + "x".repeat(5000) + "\""));
        r = check(s);
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("must be an integer, found string \"" + "x".repeat(37) + "... (5000 characters)\"\n"), r.err());
        Path id = write("id.msccl", "program \"p\" collective allgather(2) { " + "y".repeat(500) + " }\n");
        r = check(id);
        assertTrue(r.err().lines().allMatch(l -> l.length() < 400), r.err());
    }

    @Test
    void theJsonParsersAdviceAboutItselfNeverShows() throws Exception {
        List<String> docs = List.of("{\"a\": NaN}", "{\"a\": +1}", "// c\n{}", "[", "{\"a\": [}", "{\"a\": 01}", "{\"a\": 1e}", "{'a': 1}");
        int i = 0;
        for (String doc : docs) {
            for (String cmd : List.of("check", "topo validate")) {
                Path f = write("j" + i++ + ".json", doc);
                List<String> args = new java.util.ArrayList<>(List.of(cmd.split(" ")));
                args.add(f.toString());
                CliRun r = DocumentedErrorsTest.run(args.toArray(String[]::new));
                assertEquals(3, r.exit(), r.err());
                assertEquals(1, r.err().lines().count(), r.err());
                for (String leak : List.of("`", "Feature", "REDACTED", "Source:", "Constraints")) assertFalse(r.err().contains(leak), r.err());
            }
        }
        Path nan = write("nan.json", "{\"a\": NaN}");
        expect(3, nan + ":1:10: error: malformed JSON: 'NaN' is not a JSON number", check(nan));
        Path open = write("open.json", "[1\n");
        expect(3, open + ":2:1: error: malformed JSON: Unexpected end-of-input: expected close marker for Array (opened at line"
                + " 1, column 1)", check(open));
    }

    @Test
    void aLatinOneByteIsReportedAsItselfInEveryFormat() throws Exception {
        byte e9 = (byte) 0xE9;
        Path d = write("l.msccl", new byte[] {'/', '/', ' ', 'c', 'a', 'f', e9, 't', '\n'});
        expect(3, d + ":1:7: error: not valid UTF-8 text: byte 0xE9", check(d));
        Path x = write("l.xml", new byte[] {'<', 'a', 'l', 'g', 'o', ' ', 'n', 'a', 'm', 'e', '=', '"', e9, 't', '"', '/', '>'});
        expect(3, x + ":1:13: error: not valid UTF-8 text: byte 0xE9", check(x));
        Path j = write("l.json", new byte[] {'{', '"', 'n', '"', ':', '"', e9, 't', '"', '}'});
        expect(3, j + ":1:7: error: not valid UTF-8 text: byte 0xE9", check(j));
        expect(3, j + ":1:7: error: not valid UTF-8 text: byte 0xE9", DocumentedErrorsTest.run("topo", "validate", j.toString()));
    }

    static byte[] withBom(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xEF);
        out.write(0xBB);
        out.write(0xBF);
        out.writeBytes(b);
        return out.toByteArray();
    }

    @Test
    void aByteOrderMarkIsAcceptedInEveryFormat() throws Exception {
        byte[] dsl = Files.readAllBytes(Path.of(example()));
        assertEquals(0, check(write("b.msccl", withBom(dsl)), "-D", "ranks=2").exit());
        assertEquals(0, check(write("b.xml", withBom(xml().getBytes(StandardCharsets.UTF_8)))).exit());
        assertEquals(0, check(write("b.json", withBom(Plans.ONE_SIDED_ALLGATHER.getBytes(StandardCharsets.UTF_8)))).exit());
        byte[] topo = Files.readAllBytes(TestPaths.repoRoot().resolve("topology-specs/mi300x.json"));
        assertEquals(0, DocumentedErrorsTest.run("topo", "validate", write("t.json", withBom(topo)).toString()).exit());
        // The mark takes no column: an error on the first line is where it is without it.
        Path bad = write("c.msccl", withBom("param x = $;".getBytes(StandardCharsets.UTF_8)));
        assertTrue(check(bad).err().startsWith(bad + ":1:11: error: unexpected character '$'"));
    }

    @Test
    void parametersGivenToAPlanWithoutThemAreAnError() throws Exception {
        Path x = write("p.xml", xml());
        expect(2, "nunac: error: -D ranks: only .msccl plans have parameters; " + x + " is an MSCCL-IR plan\nTry 'nunac help check'.",
                check(x, "-D", "ranks=4"));
        Path j = write("p.json", Plans.ONE_SIDED_ALLGATHER);
        expect(2, "nunac: error: -D a, -D b: only .msccl plans have parameters; " + j + " is an MSCCL++ plan\nTry 'nunac help check'.",
                check(j, "-D", "b=1", "-D", "a=2"));
    }

    @Test
    void onlyAsciiDigitsAreNumbers() throws Exception {
        expect(2, "nunac: error: -D ranks=\u0664: not an integer or boolean\nTry 'nunac help check'.", check(Path.of(example()), "-D",
                "ranks=\u0664"));
        expect(2, "nunac check: --limit steps=\u0664: not an integer\nTry 'nunac help check'.", check(Path.of(example()), "--limit",
                "steps=\u0664"));
        Path x = write("a.xml", xml().replaceFirst("i_chunks=\"1\"", "i_chunks=\"\u0661\""));
        assertTrue(check(x).err().startsWith(x + ":2:3: error: attribute 'i_chunks' of <gpu> must be an integer, found '\u0661'\n"));
    }

    @Test
    void theOneOverflowingQuotientIsAnError() throws Exception {
        Path f = write("q.msccl", "program \"q\" collective allgather(2) {\n  let m = -9223372036854775807 - 1;\n  let q = m / -1;\n"
                + "  let r = m % -1;\n}\n");
        expect(1, f + ":3:11: error: integer overflow in m/-1", check(f));
    }
}
