package dev.nunac.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.passes.cost.Gemm;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.Repo;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import org.junit.jupiter.api.Test;

/** A GEMM beside the collective (§6.6, Fig. 14): it contends for the same links and stacks. */
class BackgroundGemmTest {
    final Topology topo = TopologyResolver.resolve("nuna-4die");

    @Test
    void aTilesComputeFollowsItsSize() {
        Gemm g = new Gemm(100, 64 * 1024);
        assertEquals(128, g.edge());
        assertEquals(32 * 1024, g.outputBytes());
        // 2 x 128^3 flops at 25 PFLOPS / 576 CUs
        assertEquals(2.0 * 128 * 128 * 128 / (25e15 / 576) * 1e9, g.computeNs(576), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> new Gemm(0, 4096));
        assertThrows(IllegalArgumentException.class, () -> new Gemm(1, 2));
    }

    @Test
    void aLargerGemmSlowsTheCollectiveMore() {
        CompileResult r = Driver.compile(SimulatorTest.allgather(8, 1), topo, new PlacementOptions(Policy.UA, 1, 1_000_000L), false, null, null);
        double alone = Driver.simulate(r, SimConfig.defaults()).completionNs();
        double tiny = Driver.simulate(r, SimConfig.defaults(), new Gemm(100, 4096)).completionNs();
        double big = Driver.simulate(r, SimConfig.defaults(), new Gemm(100, 1 << 20)).completionNs();
        assertTrue(tiny < 1.02 * alone, "4 KiB tiles: " + tiny + " ns against " + alone);
        assertTrue(big > 1.5 * alone, "1 MiB tiles: " + big + " ns against " + alone);
        assertEquals(big, Driver.simulate(r, SimConfig.defaults(), new Gemm(100, 1 << 20)).completionNs(), "deterministic");
    }

    @Test
    void simulatePrintsTheBackgroundAndRefusesBadSpecs() {
        String plan = Repo.root().resolve("examples/allgather-direct.msccl").toString();
        CliRun ok = CliRun.of("simulate", plan, "--topo", "nuna-4die", "-D", "ranks=2", "--size", "64KB", "--policy", "ua",
                "--background", "gemm:4:16KiB");
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().contains("background  gemm of 4 tiles per GPU, each 64 x 64 fp16"), ok.out());
        for (String bad : new String[] {"gemm", "gemm:x", "gemm:0", "gemm:4:1XB", "fft:4", "gemm:4:2"}) {
            CliRun r = CliRun.of("simulate", plan, "--topo", "nuna-4die", "-D", "ranks=2", "--background", bad);
            assertEquals(2, r.exit(), bad + ": " + r.err());
            assertTrue(r.err().contains("--background") || r.err().contains("unit"), bad + ": " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertEquals("", r.out(), bad);
        }
    }
}
