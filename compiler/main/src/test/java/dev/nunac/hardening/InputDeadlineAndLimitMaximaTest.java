package dev.nunac.hardening;

import static dev.nunac.hardening.DocumentedErrorsTest.expect;
import static dev.nunac.hardening.DocumentedErrorsTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan or spec that is a FIFO without a writer, or with one that trickles, fails after the
 * input-seconds limit instead of blocking; a FIFO fed by a producer reads as any file; and a
 * limit raised past what nunac can honour is refused with the maximum (docs/errors.md).
 */
class InputDeadlineAndLimitMaximaTest {
    @TempDir
    Path dir;

    Path fifo(String name) {
        Path f = dir.resolve(name);
        Assumptions.assumeTrue(OutputFilesTest.make("mkfifo", f.toString()), "mkfifo is not available");
        return f;
    }

    @Test
    void fifoWithoutAWriterFailsAfterTheTimeLimit() {
        for (String name : new String[] {"g.msccl", "g.xml", "g.json"}) {
            Path f = fifo(name);
            expect(3, f + ": error: no input after 1 second: it is a FIFO or device, which must deliver the whole file within 1 second"
                    + " (raise it with --limit input-seconds=N)", run("check", f.toString(), "--limit", "input-seconds=1"));
        }
    }

    @Test
    void topologySpecThatIsAFifoWithoutAWriterFailsAfterFiveSeconds() {
        Path f = fifo("t.json");
        expect(3, f + ": error: no input after 5 seconds: it is a FIFO or device, which must deliver the whole file within 5 seconds",
                run("topo", "validate", f.toString()));
    }

    @Test
    void fifoWhoseWriterTricklesSaysHowMuchCame() throws Exception {
        Path f = fifo("h.msccl");
        Thread writer = new Thread(() -> {
            try (java.io.OutputStream out = new java.io.FileOutputStream(f.toFile())) {
                for (int i = 0; i < 40; i++) {
                    out.write('/');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (java.io.IOException | InterruptedException e) {
                // the reader gave up: the pipe is broken
            }
        });
        writer.setDaemon(true);
        writer.start();
        CliRun r = run("check", f.toString(), "--limit", "input-seconds=1");
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().matches("\\Q" + f + ": error: input not complete (\\E[0-9]+ bytes\\) after 1 second: .*\n"), r.err());
    }

    @Test
    void fifoFedByAProducerReadsAsAnyFile() throws Exception {
        Path f = fifo("p.msccl");
        byte[] plan = Files.readAllBytes(TestPaths.examples().resolve("allgather-direct.msccl"));
        Thread writer = new Thread(() -> {
            try (java.io.OutputStream out = new java.io.FileOutputStream(f.toFile())) {
                out.write(plan);
            } catch (java.io.IOException e) {
                // reported by the reader
            }
        });
        writer.setDaemon(true);
        writer.start();
        CliRun r = run("check", f.toString(), "-D", "ranks=2");
        assertEquals(0, r.exit(), r.err());
        writer.join(10_000);
    }

    @Test
    void limitsPastWhatCanBeHonouredAreRefusedWithTheMaximum() {
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        String[][] cases = {
            {"input-bytes=4611686018427387904", "1073741824"}, {"nesting=200000", "10000"},
            {"pages=9223372036854775807", "4194304"}, {"steps=9223372036854775807", null}, {"ranks=2147483648", "2147483647"},
            {"input-seconds=3601", "3600"}, {"evaluations=9223372036854775807", "500000000"},
            {"loop-iterations=500000001", "500000000"}, {"evaluations=500000000", null}, {"loop-iterations=500000000", null},
        };
        for (String[] c : cases) {
            CliRun r = run("check", plan, "-D", "ranks=2", "--limit", c[0]);
            if (c[1] == null) {
                assertEquals(0, r.exit(), r.err());
                continue;
            }
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("nunac check: --limit " + c[0] + ": at most " + c[1] + ", the most nunac can honour\n"), r.err());
        }
    }

    @Test
    void aLoopAtTheRaisedBudgetsEndsWithTheirMessage() throws Exception {
        // An endless-looking loop with both budgets at their maxima is refused before it runs (the
        // iterations are claimed first), so even the largest budgets cannot make a check run on.
        CliRun r = run("check", Files.writeString(dir.resolve("p.msccl"), "param ranks = 2;\nprogram \"p\" collective allgather(ranks, inplace = true) {\n"
                + "  for i in 0 .. 1000000000000 { }\n  chunk(0, input, 0).copy(1, output, 0);\n  chunk(1, input, 0).copy(0, output, 1);\n}\n").toString(),
                "--limit", "loop-iterations=500000000", "--limit", "evaluations=500000000");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("would run 1000000000000 iterations; the plan may run at most 500000000 loop iterations"), r.err());
    }

    @Test
    void theHelpNamesEachLimitsMaximum() {
        CliRun r = run("help", "check");
        String flat = r.out().replaceAll("\\s+", " ");
        assertTrue(flat.contains("loop-iterations 500000000") && flat.contains("evaluations 500000000")
                && flat.contains("input-bytes 1073741824") && flat.contains("pages 4194304"), r.out());
    }

    @Test
    void limitValuesAreAsciiDigitsWithoutSignOrSpaces() {
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        for (String v : new String[] {" 5", "5 ", "+5"}) {
            CliRun r = run("check", plan, "--limit", "steps=" + v);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("nunac check: --limit steps=" + v + ": not an integer\n"), r.err());
        }
        for (String v : new String[] {"+4", " 4"}) {
            CliRun r = run("check", plan, "-D", "ranks=" + v);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("nunac: error: -D ranks=" + v + ": not an integer or boolean\n"), r.err());
        }
    }

    @Test
    void deepJsonWithTheNestingLimitRaisedToItsMaximumIsRefusedAtThatDepth() throws Exception {
        int depth = 100_000;
        Path f = Files.writeString(dir.resolve("deep.json"), "[".repeat(depth) + "]".repeat(depth), StandardCharsets.UTF_8);
        CliRun r = run("check", f.toString(), "--limit", "nesting=10000");
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("error: JSON nested deeper than 10000 levels"), r.err());
    }
}
