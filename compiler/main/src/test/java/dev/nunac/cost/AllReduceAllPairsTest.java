package dev.nunac.cost;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.Simulations;
import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.TestPaths;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The direct all-pairs all-reduce against the chained one it replaced as the paper's all-reduce. */
class AllReduceAllPairsTest {
    static Plan load(String example, int ranks) {
        return PlanLoader.load(TestPaths.examples().resolve(example + ".msccl"), Map.of("ranks", "" + ranks), Limits.DEFAULT);
    }

    @Test
    void passesTheCheckerAtTwoToSixteenRanks() {
        for (int ranks : new int[] {2, 4, 8, 16}) {
            Diagnostics d = new Diagnostics();
            CheckPass.check(load("allreduce-allpairs", ranks), d);
            assertFalse(d.hasErrors(), () -> ranks + " ranks: " + d.all());
        }
    }

    /** No reduce waits on another rank's reduce: one exchange, the local reduces, one exchange. */
    @Test
    void isFasterThanTheChainedOneAtEightGpus() {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        double direct = Simulations.sim(topo, load("allreduce-allpairs", 8), Policy.UA, 100_000L, PlacementOptions.NAR_AUTO).completionNs();
        double chained = Simulations.sim(topo, load("allreduce-chained", 8), Policy.UA, 100_000L, PlacementOptions.NAR_AUTO).completionNs();
        assertTrue(direct < 0.7 * chained, "direct " + direct + " ns, chained " + chained + " ns");
    }
}
