package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that once took minutes inside the default limits: each now runs, or is refused with
 * the limit's name and how to raise it, in about a second.
 */
class LimitsThatHoldTest {
    @TempDir
    Path dir;

    static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    static void expect(int exit, String stderr, CliRun r) {
        assertEquals(stderr + "\n", r.err());
        assertEquals(exit, r.exit());
    }

    @Test
    void aHundredThousandParamsAreDefinedInLinearTime() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) sb.append("param p").append(i).append(" = ").append(i).append(";\n");
        String plan = Files.readString(Path.of(example("allgather-direct")), StandardCharsets.UTF_8);
        Path f = write("params.msccl", sb + plan);
        CliRun r = DocumentedErrorsTest.run("check", f.toString(), "-D", "ranks=2");
        assertEquals(0, r.exit(), r.err());
    }

    @Test
    void twentyThousandBuffersAreLookedUpByName() throws Exception {
        // Each buffer's size was found by a scan of all buffers (minutes at 100,000); a name index makes it linear.
        StringBuilder sb = new StringBuilder("program \"b\" collective allgather(2, inplace = true) {\n");
        for (int i = 0; i < 20_000; i++) sb.append("  buffer b").append(i).append("[1];\n");
        sb.append("  chunk(0, input, 0).copy(1, output, 0);\n  chunk(1, input, 0).copy(0, output, 1);\n}\n");
        Path f = write("buffers.msccl", sb.toString());
        CliRun r = DocumentedErrorsTest.run("check", f.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(f + ": OK: allgather \"b\", 2 ranks, 2 threadblocks, 4 steps\n", r.out());
    }

    @Test
    void aHundredMillionIterationLoopIsRefusedBeforeItRuns() throws Exception {
        Path f = write("l.msccl", "program \"l\" collective allgather(2) {\n  for i in 0 .. 100000000 { let x = i; }\n}\n");
        expect(1, f + ":2:3: error: loop over 0 .. 100000000 would run 100000000 iterations; the plan may run at most 10000000 loop"
                + " iterations in all (raise it with --limit loop-iterations=N)", DocumentedErrorsTest.run("check", f.toString()));
    }

    @Test
    void aLoopThatFailsInEveryIterationStopsAtTheFirstFailure() throws Exception {
        Path f = write("e.msccl", "program \"l\" collective allgather(2) {\n"
                + "  for i in 0 .. 9000000 { chunk(0, input, i + 5).copy(1, output, 0); }\n}\n");
        expect(1, f + ":2:36: error: index 5 is out of bounds for buffer 'input' of 1 chunks on rank 0",
                DocumentedErrorsTest.run("check", f.toString()));
    }

    @Test
    void heavyLoopBodiesRunOutOfEvaluationSteps() throws Exception {
        Path f = write("h.msccl", "program \"l\" collective allgather(2) {\n"
                + "  for i in 0 .. 1000 { let a = i + 1; let b = a * 2; let c = a + b; }\n}\n");
        expect(1, f + ":2:3: error: the plan takes more than 5000 evaluation steps (loop iterations, statements and expressions);"
                + " this loop was running when they ran out (raise it with --limit evaluations=N)",
                DocumentedErrorsTest.run("check", f.toString(), "--limit", "evaluations=5000"));
    }

    @Test
    void theLoopThatSpentTheBudgetIsNamedNotTheLaterOneThatAsks() throws Exception {
        Path f = write("b.msccl", "program \"l\" collective allgather(2) {\n  for i in 0 .. 95 { }\n  for j in 0 .. 10 { }\n}\n");
        expect(1, f + ":2:3: error: this loop ran 95 of the 100 loop iterations the plan may run in all, so the loop at line 3,"
                + " column 3 cannot run its 10 (raise it with --limit loop-iterations=N)",
                DocumentedErrorsTest.run("check", f.toString(), "--limit", "loop-iterations=100"));
        // Nested loops: the inner loop asks, and is the one named.
        assertTrue(DocumentedErrorsTest.run("check", example("allgather-direct"), "--limit", "loop-iterations=10").err()
                .startsWith(example("allgather-direct") + ":15:5: error: loop over 0 .. 8 would run 8 iterations"));
    }

    @Test
    void aPlanOfTooManyStepsStopsWhileItsOperationsAreMade() {
        expect(1, example("allgather-direct") + ":19:30: error: the plan has more than 250000 steps (raise it with --limit steps=N)",
                DocumentedErrorsTest.run("check", example("allgather-direct"), "-D", "ranks=4096"));
    }

    @Test
    void wideStepsStopAtTheStepChunksLimitWhileTheyAreMade() throws Exception {
        // 1000 copies of a 1,000,000-chunk range took minutes and gigabytes: every pass works per chunk of every step.
        Path d = write("w.msccl", "program \"w\" collective allgather(2, inplace = true) {\n  buffer big[2000];\n"
                + "  for i in 0 .. 1000 { chunk(0, big, 0, 1000).copy(1, big, 1000); }\n"
                + "  chunk(0, input, 0).copy(1, output, 0);\n  chunk(1, input, 0).copy(0, output, 1);\n}\n");
        expect(1, d + ":3:47: error: the plan's steps name more than 50000 chunks in all (every step's count, summed;"
                + " raise it with --limit step-chunks=N)", DocumentedErrorsTest.run("check", d.toString(), "--limit", "step-chunks=50000"));
        // Within the limit the plan checks: 2,000 steps of 1,000 chunks each.
        assertEquals(0, DocumentedErrorsTest.run("check", d.toString(), "--limit", "step-chunks=3000000").exit());
        StringBuilder x = new StringBuilder("<algo name=\"w\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2000\" ngpus=\"2\""
                + " coll=\"custom\" inplace=\"0\">\n");
        for (int g = 0; g < 2; g++) {
            x.append("<gpu id=\"").append(g).append("\" i_chunks=\"1000\" o_chunks=\"1000\" s_chunks=\"0\">\n<tb id=\"0\" send=\"")
                    .append(g == 0 ? 1 : -1).append("\" recv=\"").append(g == 0 ? -1 : 0).append("\" chan=\"0\">\n");
            for (int i = 0; i < 100; i++) {
                x.append("<step s=\"").append(i).append("\" type=\"").append(g == 0 ? "s" : "r").append("\" srcbuf=\"i\" srcoff=\"0\""
                        + " dstbuf=\"o\" dstoff=\"0\" cnt=\"1000\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n");
            }
            x.append("</tb></gpu>\n");
        }
        Path f = write("w.xml", x.append("</algo>\n").toString());
        expect(1, f + ":54:1: error: the plan's steps name more than 50000 chunks in all (every step's count, summed;"
                + " raise it with --limit step-chunks=N)", DocumentedErrorsTest.run("check", f.toString(), "--limit", "step-chunks=50000"));
        assertEquals(0, DocumentedErrorsTest.run("check", f.toString()).exit());
    }

    @Test
    void aTunedValuePastTheLimitsIsReportedBeforeAnySearchRuns() {
        // The combinations before it were searched first: 64 values of ranks took 15 s to reach the one too large.
        String p = example("allgather-direct");
        expect(1, p + ":19:30: error: the plan has more than 250000 steps (raise it with --limit steps=N)",
                DocumentedErrorsTest.run(p, "--topo", "nuna-4die", "-o", dir.resolve("o").toString(), "--tune", "ranks=2,4,4096"));
        assertTrue(Files.notExists(dir.resolve("o")));
        // The combinations' steps together are bounded like one plan's (8 x 8 values at up to 128 ranks ran past 20 s).
        // A sixteenth of the steps limit: 16 combinations of up to 64 threadblocks per peer took 13 s.
        expect(1, p + ": error: --tune: the combinations up to tbs_per_peer=8 have more than 1000 steps in all, a sixteenth of"
                + " the steps limit, each searched in turn (tune fewer values, or raise the limit with --limit steps=N)",
                DocumentedErrorsTest.run(p, "--topo", "nuna-4die", "-o", dir.resolve("o").toString(), "--tune", "tbs_per_peer=1,2,4,8",
                        "--limit", "steps=16000"));
        assertTrue(Files.notExists(dir.resolve("o")));
    }

    @Test
    void runningOutOfMemoryWithALimitRaisedIsTheUsersErrorNotABug() throws Exception {
        // A 64 MiB heap cannot hold the checker's 100,000,000 chunks, which only a raised limit lets in.
        Path f = write("big.msccl", "program \"b\" collective allgather(2) {\n  buffer big[100000000];\n"
                + "  chunk(0, big, 0, 100000000).copy(0, big, 0);\n}\n");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(javaBin, "-Xmx64m", "-XX:+UseSerialGC", "-cp", cp, "dev.nunac.cli.Main", "check", f.toString(),
                "--limit", "chunks=1000000000", "--limit", "step-chunks=1000000000").redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), log);
        assertEquals(1, p.exitValue(), log);
        assertTrue(log.matches("nunac: error: out of memory: with the limits raised by --limit, this run needs more than the [0-9]+"
                + " MiB of heap the JVM has; lower the limits or the size, or give the JVM more \\(NUNAC_JAVA_OPTS=-Xmx\\.\\.\\.\\)\n"), log);
    }

    @Test
    void sizesWhosePagesNoPlacementCouldMapAreRefusedBeforePlacing() {
        String p = example("allgather-direct");
        for (String size : new String[] {"100GiB", "1000GiB"}) {
            CliRun r = DocumentedErrorsTest.run(p, "--topo", "nuna-4die", "-D", "ranks=8", "--size", size, "-o", dir.resolve("o").toString());
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.err().matches("\\Q" + p + "\\E:10:1: error: at [0-9]+ bytes the plan's buffers span [0-9]+ pages of 4096 bytes;"
                    + " a placement may map at most 524288 \\(choose a smaller --size, or raise the limit with --limit pages=N\\)\n"), r.err());
        }
        // compare checks every size before it searches the first
        expect(1, p + ":10:1: error: at 8589934592 bytes the plan's buffers span 4194304 pages of 4096 bytes; a placement may map at"
                + " most 524288 (choose a smaller --size, or raise the limit with --limit pages=N)",
                DocumentedErrorsTest.run("compare", p, "--topo", "nuna-4die", "-D", "ranks=2", "--sizes", "1MB,8GiB"));
        // The limit is the same for every command that places a plan, and can be set.
        CliRun sim = DocumentedErrorsTest.run("simulate", p, "--topo", "nuna-4die", "-D", "ranks=2", "--limit", "pages=100");
        assertEquals(1, sim.exit(), sim.err());
        assertTrue(sim.err().endsWith("a placement may map at most 100 (choose a smaller --size, or raise the limit with --limit"
                + " pages=N)\n"), sim.err());
    }

    @Test
    void nonAsciiTextLexesAsFastAsAscii() throws Exception {
        // The lexer's transition cache covers ASCII only: 3,000,000 'é' in a comment once took a second, 30 million ten.
        Path f = write("c.msccl", "// " + "\u00e9".repeat(3_000_000) + "\nparam x = 1;\nprogram \"caf\u00e9\" collective allgather(2) { }\n");
        CliRun r = DocumentedErrorsTest.run("ir", f.toString());
        assertTrue(r.out().startsWith("plan \"caf\u00e9\"\n"), r.err());
    }

    @Test
    void theLexerStopsAtTheTokenAndNestingLimits() throws Exception {
        Path many = write("many.msccl", "x ".repeat(2000));
        expect(3, many + ":1:2001: error: more than 1000 tokens (raise the limit with --limit elements=N)",
                DocumentedErrorsTest.run("check", many.toString(), "--limit", "elements=1000"));
        Path deep = write("deep.msccl", "(".repeat(1_000_000));
        expect(1, deep + ":1:257: error: nesting deeper than 256 levels (raise it with --limit nesting=N)",
                DocumentedErrorsTest.run("check", deep.toString()));
    }
}
