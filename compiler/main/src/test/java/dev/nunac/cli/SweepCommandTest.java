package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nunac sweep} and {@code nunac sweep merge} as a user runs them: outputs, progress, exit codes, refusals. */
class SweepCommandTest {
    @TempDir
    Path tmp;

    Path spec(String sizes) throws Exception {
        String ex = TestPaths.examples().resolve("allgather-direct.msccl").toString().replace("\\", "\\\\");
        return Files.writeString(tmp.resolve("spec.json"), "{\"plans\": [\"" + ex + "\"], \"gpus\": [2], \"topologies\": [\"nuna-4die\"],"
                + " \"sizes\": [" + sizes + "], \"policies\": [\"ua\", \"nap+nar\"]}\n");
    }

    @Test
    void runsThePointsShowsProgressAndMerges() throws Exception {
        Path spec = spec("\"100KB\", \"1MB\"");
        Path dir = tmp.resolve("out");
        CliRun r = CliRun.of("sweep", spec.toString(), "-o", dir.toString(), "--shard", "1/2");
        assertEquals(0, r.exit(), r.err());
        assertEquals("nunac: sweep shard 1/2: 1 of 2 points, 1 computed, 0 already done; results in " + dir.resolve("points") + "\n", r.out());
        // not a terminal: one line per point
        assertEquals("nunac: sweep 1/1: allgather-direct.g2.nuna-4die.1MB\n", r.err());
        CliRun missing = CliRun.of("sweep", "merge", dir.toString());
        assertEquals(3, missing.exit());
        assertEquals(dir + ": error: 1 of 2 points have no result (first: allgather-direct.g2.nuna-4die.100KB); run their shards again"
                + " (a sweep resumes where it stopped), or merge what there is with --allow-missing\n", missing.err());
        assertFalse(Files.exists(dir.resolve("sweep.csv")));
        CliRun rest = CliRun.of("sweep", spec.toString(), "-o", dir.toString(), "--quiet");
        assertEquals(0, rest.exit(), rest.err());
        assertEquals("", rest.err());
        assertTrue(rest.out().contains(": 2 of 2 points, 1 computed, 1 already done;"), rest.out());
        Path merged = tmp.resolve("tables");
        CliRun m = CliRun.of("sweep", "merge", dir.toString(), "-o", merged.toString());
        assertEquals(0, m.exit(), m.err());
        assertTrue(m.out().startsWith("nunac: sweep merge: 2 points; wrote "), m.out());
        try (var s = Files.list(merged)) {
            assertEquals(List.of("sweep.csv", "sweep.md"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(1 + 2 * 2, Files.readAllLines(merged.resolve("sweep.csv")).size());
    }

    @Test
    void aBadSpecIsOneLineExitOneAndWritesNothing() throws Exception {
        Path spec = spec("\"100KB\", \"1XB\"");
        Path dir = tmp.resolve("out");
        CliRun r = CliRun.of("sweep", spec.toString(), "-o", dir.toString());
        assertEquals(1, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith(spec + ":1:"), r.err());
        assertTrue(r.err().contains("error: $.sizes[1]: size '1XB': unknown unit"), r.err());
        assertEquals("", r.out());
        assertFalse(Files.exists(dir));
        CliRun none = CliRun.of("sweep", tmp.resolve("none.json").toString(), "-o", dir.toString());
        assertEquals(3, none.exit());
        assertEquals(tmp.resolve("none.json") + ": error: no such file\n", none.err());
        assertFalse(Files.exists(dir));
    }

    @Test
    void usageErrorsPointToHelp() throws Exception {
        Path spec = spec("\"100KB\"");
        String[][] cases = {
                {"nunac sweep: missing SPEC argument", "sweep"},
                {"nunac sweep: expected one SPEC, got 2", "sweep", spec.toString(), spec.toString()},
                {"nunac sweep: --shard expected i/n", "sweep", spec.toString(), "--shard", "2"},
                {"parts are counted from 0", "sweep", spec.toString(), "--shard", "2/2"},
                {"--allow-missing is an option of sweep merge", "sweep", spec.toString(), "--allow-missing"},
                {"nunac sweep: sweep merge: missing DIR", "sweep", "merge"},
                {"--shard is an option of sweep SPEC", "sweep", "merge", tmp.toString(), "--shard", "0/2"},
                {"--jobs is an option of sweep SPEC", "sweep", "merge", tmp.toString(), "--jobs", "2"},
                {"nunac sweep: --jobs -1: expected 0 (one per core) to 256", "sweep", spec.toString(), "--jobs", "-1"},
                {"nunac sweep: --jobs 257: expected 0 (one per core) to 256", "sweep", spec.toString(), "-j", "257"},
        };
        for (String[] c : cases) {
            CliRun r = CliRun.of(java.util.Arrays.copyOfRange(c, 1, c.length));
            CommandLinePromisesTest.usageError(r, c[0], "sweep");
        }
        CliRun help = CliRun.of("help", "sweep");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("--shard"), help.out());
        assertTrue(help.out().contains("--jobs"), help.out());
    }

    @Test
    void mergeOfAFolderThatIsNoSweepIsAnInputError() {
        CliRun r = CliRun.of("sweep", "merge", tmp.toString());
        assertEquals(3, r.exit());
        assertEquals(tmp + ": error: not a sweep folder: it has no sweep.json (nunac sweep SPEC -o DIR writes one)\n", r.err());
    }
}
