package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile inputs of docs/errors.md, through the command line, with the messages and exit
 * codes documented there; nothing reaches the process's own standard streams.
 */
class DocumentedErrorsTest {
    /** Runs the CLI and checks that the JVM's own stdout and stderr stay empty. */
    static CliRun run(String... args) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream stray = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(stray, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try {
            return CliRun.of(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
            assertEquals("", stray.toString(StandardCharsets.UTF_8), "printed past the CLI's streams");
        }
    }

    static Path write(Path dir, String name, byte[] bytes) throws Exception {
        return Files.write(dir.resolve(name), bytes);
    }

    static Path write(Path dir, String name, String text) throws Exception {
        return write(dir, name, text.getBytes(StandardCharsets.UTF_8));
    }

    static void expect(int exit, String stderr, CliRun r) {
        assertEquals(stderr + "\n", r.err());
        assertEquals(exit, r.exit());
    }

    @Test
    void externalEntity(@TempDir Path d) throws Exception {
        Path f = write(d, "xxe.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE algo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
                + "<algo name=\"&xxe;\"/>\n");
        expect(3, f + ":1:22: error: DOCTYPE declarations are not allowed (an MSCCL-IR file needs no DTD or entities)",
                run("check", f.toString()));
    }

    @Test
    void entityExpansion(@TempDir Path d) throws Exception {
        StringBuilder x = new StringBuilder("<!DOCTYPE algo [\n <!ENTITY l0 \"lol\">\n");
        for (int i = 1; i < 10; i++) x.append(" <!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">\n");
        Path f = write(d, "laughs.xml", x + "]>\n<algo name=\"&l9;\"/>\n");
        expect(3, f + ":1:1: error: DOCTYPE declarations are not allowed (an MSCCL-IR file needs no DTD or entities)",
                run("check", f.toString()));
    }

    @Test
    void undeclaredEntityReference(@TempDir Path d) throws Exception {
        Path f = write(d, "e.xml", "<algo name=\"&x;\"/>\n");
        expect(3, f + ":1:16: error: not well-formed XML: The entity \"x\" was referenced, but not declared.", run("check", f.toString()));
    }

    @Test
    void loopOfATrillionIterationsFailsFast() {
        Path f = TestPaths.moduleDir().resolve("src/test/resources/golden/bad/huge-loop.msccl");
        CliRun r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run("check", f.toString()));
        expect(1, f + ":3:3: error: loop over 0 .. 1000000000000 would run 1000000000000 iterations; the plan may run at most"
                + " 10000000 loop iterations in all (raise it with --limit loop-iterations=N)", r);
    }

    @Test
    void invalidUtf8InXmlIsOneMessage(@TempDir Path d) throws Exception {
        Path f = write(d, "bad.xml", new byte[] {'<', 'a', 'l', 'g', 'o', ' ', (byte) 0xFF, '/', '>'});
        expect(3, f + ":1:7: error: not valid UTF-8 text: byte 0xFF", run("check", f.toString()));
    }

    @Test
    void invalidUtf8InDsl(@TempDir Path d) throws Exception {
        Path f = write(d, "bad.msccl", new byte[] {'p', 'a', 'r', 'a', 'm', (byte) 0xC0, (byte) 0xAF});
        expect(3, f + ":1:6: error: not valid UTF-8 text: byte 0xC0", run("check", f.toString()));
    }

    @Test
    void deepJsonPlan(@TempDir Path d) throws Exception {
        Path f = write(d, "deep.json", "[".repeat(300) + "]".repeat(300));
        expect(3, f + ":1:258: error: JSON nested deeper than 256 levels (raise the limit with --limit nesting=N)",
                run("check", f.toString()));
    }

    @Test
    void hugeNumberInJsonPlan(@TempDir Path d) throws Exception {
        Path f = write(d, "n.json", "{\"name\": " + "9".repeat(100) + "}");
        expect(3, f + ":1:110: error: a JSON number longer than 64 characters", run("check", f.toString()));
    }

    @Test
    void hugeExponentInTopology(@TempDir Path d) throws Exception {
        Path f = write(d, "t.json", "{\"format\": 9e999999999}");
        expect(3, f + ":1:12: error: number 9e999999999 is out of range (at most 1e60 in magnitude, and not below 1e-60)",
                run("topo", "validate", f.toString()));
    }

    @Test
    void deepTopology(@TempDir Path d) throws Exception {
        Path f = write(d, "t.json", "{\"a\":".repeat(40) + "1" + "}".repeat(40));
        expect(3, f + ":1:162: error: JSON nested deeper than 32 levels", run("topo", "validate", f.toString()));
    }

    @Test
    void pathTheFileSystemCannotName() {
        // A lone surrogate has no encoding in any file-name charset.
        CliRun r = run("check", "plan\uD800.msccl");
        assertEquals(2, r.exit(), r.err());
        assertEquals("nunac check: PLAN: not a valid path (Malformed input or input contains unmappable characters)\n"
                + "Try 'nunac help check'.\n", r.err());
        assertEquals(2, run("topo", "show", "x\uD800.json").exit());
        assertEquals(2, run(TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", "mi300x", "-o", "out\uD800").exit());
    }

    @Test
    void absurdLatencyInATopologyStillCompilesAndSimulates(@TempDir Path d) throws Exception {
        // Found by the fuzz campaign: a latency of 2^63 ns made the cost model's histogram index overflow.
        String spec = Files.readString(TestPaths.repoRoot().resolve("topology-specs/nuna-4die.json"), StandardCharsets.UTF_8);
        int at = spec.indexOf("\"value\"", spec.indexOf("\"cuToNocNs\""));
        String slow = spec.substring(0, at) + spec.substring(at).replaceFirst("\"value\": *[0-9.]+", "\"value\": 9223372036854775808");
        Path f = write(d, "slow.json", slow);
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        CliRun r = run(plan, "-D", "ranks=2", "--topo", f.toString(), "-o", d.resolve("out").toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(0, run("simulate", plan, "-D", "ranks=2", "--topo", f.toString(), "--csv", d.resolve("csv").toString()).exit());
    }

    @Test
    void planThatIsALinkToAnEndlessDeviceStopsAtTheInputLimit(@TempDir Path d) throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero here");
        for (String name : List.of("zero.msccl", "zero.json", "zero.xml")) {
            Path f = Files.createSymbolicLink(d.resolve(name), Path.of("/dev/zero"));
            CliRun r = run("check", f.toString(), "--limit", "input-bytes=4096");
            assertEquals(3, r.exit(), r.err());
            // XML stops at the first NUL, before the limit; the others read up to it.
            assertTrue(r.err().equals(f + ": error: file is more than 4096 bytes; the limit is 4096 (raise it with --limit input-bytes=N)\n")
                    || name.endsWith(".xml") && r.err().startsWith(f + ":1:1: error: not well-formed XML"), r.err());
        }
        Path topo = Files.createSymbolicLink(d.resolve("t.json"), Path.of("/dev/zero"));
        expect(3, topo + ": error: topology spec is more than 4194304 bytes; the limit is 4194304", run("topo", "validate", topo.toString()));
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        expect(3, topo + ": error: topology spec is more than 4194304 bytes; the limit is 4194304",
                run(plan, "--topo", "nuna-4die", "--topo-override", topo.toString(), "-o", d.resolve("out").toString()));
    }

    @Test
    void planReadFromAnEndlessFifoStopsAtTheInputLimit(@TempDir Path d) throws Exception {
        Path fifo = d.resolve("p.json");
        Assumptions.assumeTrue(OutputFilesTest.make("mkfifo", fifo.toString()), "mkfifo is not available");
        Thread writer = new Thread(() -> {
            try (java.io.OutputStream out = new java.io.FileOutputStream(fifo.toFile())) {
                byte[] chunk = "[".repeat(4096).getBytes(StandardCharsets.UTF_8);
                while (true) out.write(chunk);
            } catch (java.io.IOException e) {
                // the reader stopped: the pipe is broken
            }
        });
        writer.setDaemon(true);
        writer.start();
        expect(3, fifo + ": error: file is more than 100000 bytes; the limit is 100000 (raise it with --limit input-bytes=N)",
                run("check", fifo.toString(), "--limit", "input-bytes=100000"));
        writer.join(10_000);
    }
}
