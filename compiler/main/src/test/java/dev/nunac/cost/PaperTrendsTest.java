package dev.nunac.cost;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.Driver;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import org.junit.jupiter.api.Test;

/** The paper's trends (§6.4, §6.5) on nuna-4die, 8 GPUs, direct all-gather, 7 threadblocks per GPU. */
class PaperTrendsTest {
    final Topology topo = TopologyResolver.resolve("nuna-4die");
    final Plan plan = SimulatorTest.allgather(8, 1);

    double time(Policy p, long size, int nar) {
        return Driver.simulate(Driver.compile(plan, topo, new PlacementOptions(p, nar, size), false, null, null), SimConfig.defaults())
                .completionNs();
    }

    @Test
    void napNarSpeedupIsLargeForSmallCollectivesAndFadesWithSize() {
        double small = time(Policy.UA, 100_000, 0) / time(Policy.NAP_NAR, 100_000, 0);
        double large = time(Policy.UA, 10_000_000, 0) / time(Policy.NAP_NAR, 10_000_000, 0);
        assertTrue(small >= 1.4 && small <= 2.0, "100 kB speedup " + small);
        assertTrue(large <= small && large <= 1.15, "10 MB speedup " + large);
    }

    /**
     * With 1,008 threadblocks per GPU (868 B chunks, packed into pages by NAP) every NAR
     * granularity keeps its stores on its own domain's ports and beats hashing clearly (§6.5).
     */
    @Test
    void withManyThreadblocksEveryGranularityBeatsHashing() {
        Plan many = SimulatorTest.allgather(8, 144);
        java.util.function.IntToDoubleFunction t = nar -> Driver.simulate(Driver.compile(many, topo,
                new PlacementOptions(Policy.NAP_NAR, nar, 1_000_000), false, null, null), SimConfig.defaults()).completionNs();
        double hashed = t.applyAsDouble(PlacementOptions.NAR_OFF);
        for (int k : new int[] {2, 4, 6, 12}) {
            double s = hashed / t.applyAsDouble(k);
            assertTrue(s >= 1.3, "k=" + k + " speedup over hashing " + s);
        }
    }

    @Test
    void withFewThreadblocksFineGranularityLosesToACoarseOne() {
        double fine = time(Policy.NAP_NAR, 1_000_000, 12), coarse = time(Policy.NAP_NAR, 1_000_000, 2);
        assertTrue(fine > coarse, "k=12 " + fine + " ns, k=2 " + coarse + " ns");
    }
}
