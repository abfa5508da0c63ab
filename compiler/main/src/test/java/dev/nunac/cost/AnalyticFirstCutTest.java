package dev.nunac.cost;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.Nunac;
import dev.nunac.driver.CompileResult;
import dev.nunac.passes.cost.AnalyticEstimate;
import dev.nunac.passes.nar.NarChoice;
import dev.nunac.passes.place.PhysicalPlacement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.TestPaths;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NAR auto on large plans simulates only hashing and the two granularities the analytic estimate ranks best;
 * on plans small enough to simulate exhaustively that choice is within 2 % of the best.
 */
class AnalyticFirstCutTest {
    @Test
    void hashingAndTheAnalyticTopTwoComeWithinTwoPercentOfTheBest() throws Exception {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        for (String ex : List.of("allgather-direct", "allreduce-allpairs", "alltoall-direct", "allreduce-ring")) {
            for (String size : List.of("100000", "1048576")) {
                String text = Files.readString(TestPaths.examples().resolve(ex + ".msccl"));
                PlacementOptions opt = new PlacementOptions(Policy.NAP_NAR, PlacementOptions.NAR_DEFAULT, Long.parseLong(size));
                CompileResult r = Nunac.compileSource(ex, text, Map.of("ranks", "8"), topo, opt);
                double best = Double.POSITIVE_INFINITY;
                for (NarChoice.Candidate c : r.nar().candidates()) best = Math.min(best, c.estimateNs());
                List<double[]> ranked = new ArrayList<>(); // {analytic, simulated}
                double hashed = Double.POSITIVE_INFINITY;
                for (NarChoice.Candidate c : r.nar().candidates()) {
                    if (c.granularity() == 1) hashed = c.estimateNs();
                    var p = PhysicalPlacement.place(r.plan(), r.accesses(), r.groups(),
                            new NarChoice(c.granularity(), false, "trial", List.of()), topo, opt);
                    ranked.add(new double[] {AnalyticEstimate.ns(r.accesses(), p, topo), c.estimateNs()});
                }
                ranked.sort(Comparator.comparingDouble(a -> a[0]));
                double chosen = hashed;
                for (int i = 0; i < Math.min(2, ranked.size()); i++) chosen = Math.min(chosen, ranked.get(i)[1]);
                assertTrue(chosen <= best * 1.02, ex + " at " + size + ": hashing and the analytic top two give " + chosen
                        + " ns, best " + best);
            }
        }
    }
}
