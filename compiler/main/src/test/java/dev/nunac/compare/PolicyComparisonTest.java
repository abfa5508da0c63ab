package dev.nunac.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.testing.TestPaths;
import dev.nunac.topology.TopologyResolver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rows of a comparison: as their search timed them, or every one simulated when asked. */
class PolicyComparisonTest {
    @Test
    void simulateAllTimesRowsTheSearchLeftToTheAnalyticEstimate() {
        var plan = PlanLoader.load(TestPaths.examples().resolve("allgather-direct.msccl"), Map.of("ranks", "4"), Limits.DEFAULT);
        var topo = TopologyResolver.resolve("nuna-4die");
        long size = 1 << 20;
        CompileResult c = Driver.compile(plan, topo, new PlacementOptions(Policy.UA, PlacementOptions.NAR_AUTO, size), false, null, null);
        PlacementSearch.Settings analytic = PlacementSearch.Settings.defaults().withBudget(0); // the analytic estimate decides
        List<PolicyComparison.Cell> asSearched = PolicyComparison.run(c, List.of(Policy.NAP_NAR), List.of(size), PlacementOptions.NAR_AUTO,
                false, false, Progress.NONE, Long::toString, analytic, false);
        List<PolicyComparison.Cell> simulated = PolicyComparison.run(c, List.of(Policy.NAP_NAR), List.of(size), PlacementOptions.NAR_AUTO,
                false, false, Progress.NONE, Long::toString, analytic, true);
        assertFalse(asSearched.get(0).simulated());
        PolicyComparison.Cell s = simulated.get(0);
        assertTrue(s.simulated());
        assertEquals(asSearched.get(0).chosen(), s.chosen(), "the same choice, timed otherwise");
        var again = PlacementSearch.search(c.input().withSize(size), c.groups(), new PlacementOptions(Policy.NAP_NAR, PlacementOptions.NAR_AUTO, size),
                analytic);
        double sim = Driver.simulate(c, again.chosen().placement(), SimConfig.defaults()).completionNs();
        double ua = Driver.simulate(c, again.baseline().placement(), SimConfig.defaults()).completionNs();
        assertEquals(sim, s.timeNs(), 1e-9);
        assertEquals(ua / sim, s.speedupOverUa(), 1e-12);
    }
}
