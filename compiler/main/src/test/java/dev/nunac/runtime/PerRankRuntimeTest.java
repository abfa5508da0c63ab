package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.emit.Output;
import dev.nunac.emit.PerRankOutputs;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime loads one rank's launch table of a per-rank output: that rank's grid order and
 * threadblock placement are the whole table's, other ranks are not there, and it does not run
 * alone.
 */
class PerRankRuntimeTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void runtime() {
        assumeTrue(NunaRuntime.isAvailable(), () -> "native runtime unavailable: " + NunaRuntime.unavailabilityCause());
    }

    @Test
    void oneRanksTableLoadsThatRanksPlacement() throws Exception {
        String plan = TestPaths.examples().resolve("allreduce-ring.msccl").toString();
        Path whole = tmp.resolve("whole"), per = tmp.resolve("per");
        for (Path out : new Path[] {whole, per}) {
            CliRun r = CliRun.of(plan, "--topo", "mi300x", "-D", "ranks=4", "--size", "64KiB", "-o", out.toString(), "--only", "launch",
                    out == per ? "--per-rank" : "--quiet");
            assertEquals(0, r.exit(), r.err());
        }
        int rank = 2;
        try (Session w = NunaRuntime.open("host", null); Session p = NunaRuntime.open("host", null)) {
            w.load(Files.readString(whole.resolve("launch.txt")));
            p.load(Files.readString(per.resolve(PerRankOutputs.file(rank, 4, Output.LAUNCH))));
            assertEquals("validated", p.state());
            assertEquals(-1, w.partRank());
            assertEquals(rank, p.partRank());
            assertArrayEquals(w.gridOrder(rank), p.gridOrder(rank));
            int tbs = 0;
            for (int g : w.gridOrder(rank)) if (g >= 0) tbs++;
            assertTrue(tbs > 0);
            for (int t = 0; t < tbs; t++) assertEquals(w.placement(rank, t), p.placement(rank, t), "threadblock " + t);
            assertTrue(p.report().contains("part: rank 2 of 4"), p.report());
            RuntimeFailure other = assertThrows(RuntimeFailure.class, () -> p.gridOrder(0));
            assertEquals(RuntimeFailure.Status.ARGUMENT, other.status());
            RuntimeFailure run = assertThrows(RuntimeFailure.class, p::allocate);
            assertEquals(RuntimeFailure.Status.UNSUPPORTED, run.status());
            assertTrue(run.getMessage().contains("need every rank's table"), run.getMessage());
        }
    }
}
