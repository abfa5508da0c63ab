package dev.nunac.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nunac e2e}: TTFT and TPOT of a workload, and one positioned message for a bad workload file. */
class E2eCommandTest {
    @TempDir
    Path tmp;

    /** A small workload: a 2-GPU all-gather, so that the test runs in seconds. */
    String small(String plan) {
        return "{\"name\": \"tiny\", \"phases\": [\n"
                + " {\"name\": \"prefill\", \"compute_us\": 10, \"collectives\": [\n"
                + "   {\"plan\": \"" + plan + "\", \"defines\": {\"ranks\": 2}, \"bytes\": 100000, \"count\": 4}]},\n"
                + " {\"name\": \"decode\", \"compute_us\": 2.5, \"collectives\": [\n"
                + "   {\"plan\": \"" + plan + "\", \"defines\": {\"ranks\": 2}, \"bytes\": 4096, \"count\": 3}]}]}\n";
    }

    Path write(String name, String text) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    String plan() {
        return TestPaths.examples().resolve("allgather-direct.msccl").toAbsolutePath().toString().replace("\\", "/");
    }

    @Test
    void reportsTtftAndTpotUnderUaAndTheChoice() throws Exception {
        Path f = write("w.json", small(plan()));
        CliRun r = CliRun.of("e2e", f.toString(), "--topo", "nuna-4die", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("TTFT  ua "), r.out());
        assertTrue(r.out().contains("TPOT  ua "), r.out());
        // the decode phase: 2.5 us of compute plus three collectives
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("decode ") && l.contains("2.5")), r.out());
        CliRun again = CliRun.of("e2e", f.toString(), "--topo", "nuna-4die", "--quiet");
        assertEquals(r.out(), again.out(), "deterministic");
    }

    @Test
    void shippedWorkloadsRead() {
        for (String w : new String[] {"llama-70b-tp8.json", "mixtral-8x7b-ep8.json"}) {
            Workload wl = WorkloadReader.read(TestPaths.examples().resolve("workloads").resolve(w));
            assertEquals(2, wl.phases().size(), w);
            assertTrue(wl.phases().stream().allMatch(p -> p.computeUs() > 0 && !p.collectives().isEmpty()), w);
        }
    }

    void bad(String text, String message, String where) throws Exception {
        Path f = write("bad.json", text);
        CliRun r = CliRun.of("e2e", f.toString(), "--topo", "nuna-4die", "--quiet");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("bad.json" + where), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void badWorkloadFilesGetOnePositionedMessage() throws Exception {
        bad("{\"name\": \"x\", \"phases\": [", "malformed JSON", ":1:");
        bad("{\"name\": \"x\"}", "$: missing required field 'phases'", ":1:1");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"train\", \"compute_us\": 1, \"collectives\": []}]}",
                "$.phases[0].name: must be one of prefill, decode, found 'train'", ":1:");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"decode\", \"compute_us\": \"1\", \"collectives\": []}]}",
                "$.phases[0].compute_us: must be a number, found string", ":1:");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"decode\", \"compute_us\": 1, \"collectives\": [\n"
                + "  {\"plan\": \"nowhere.msccl\", \"bytes\": 4096, \"count\": 1}]}]}", "no plan file 'nowhere.msccl'", ":2:");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"decode\", \"compute_us\": 1, \"collectives\": [\n"
                + "  {\"plan\": \"" + plan() + "\", \"bytes\": 0, \"count\": 1}]}]}", "$.phases[0].collectives[0].bytes: must be an integer from 1 to", ":2:");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"decode\", \"compute_us\": 1, \"collectives\": [], \"extra\": 1}]}",
                "unknown field 'extra'", ":1:");
        bad("{\"name\": \"x\", \"phases\": [{\"name\": \"decode\", \"compute_us\": 1, \"collectives\": []},"
                + " {\"name\": \"decode\", \"compute_us\": 1, \"collectives\": []}]}", "phase 'decode' given twice", ":1:");
    }

    @Test
    void missingWorkloadIsAUsageError() {
        CliRun r = CliRun.of("e2e", "--topo", "nuna-4die");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("missing WORKLOAD"), r.err());
    }
}
