package dev.nunac.reproduction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The best-threadblock tables: points simulated side by side read back as simulated one by one, and the best is the fastest. */
class BestThreadblocksTest {
    static final Path REPO = Fig9FromSweepTest.REPO;

    PaperReproduction reproduction() {
        return new PaperReproduction(REPO.resolve("examples"), REPO.resolve("bench/" + PaperReproduction.WHAT_IF));
    }

    @Test
    void warmedPointsAreTheSequentialOnes() {
        PaperReproduction parallel = reproduction(), sequential = reproduction();
        List<PaperReproduction.Point> points = new ArrayList<>();
        for (int tpp : new int[] {1, 2}) {
            for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
                points.add(new PaperReproduction.Point(parallel.plan("allgather-direct", 4, tpp), p, 100_000L, PlacementOptions.NAR_AUTO));
            }
        }
        parallel.warm(points);
        for (int i = 0; i < points.size(); i++) {
            PaperReproduction.Point pt = points.get(i);
            Plan same = sequential.plan("allgather-direct", 4, i < 2 ? 1 : 2);
            assertEquals(sequential.sim(same, pt.policy(), pt.size(), pt.nar()).completionNs(),
                    parallel.sim(pt.plan(), pt.policy(), pt.size(), pt.nar()).completionNs(), pt.policy() + " " + i);
        }
    }

    @Test
    void theBestIsTheFastestCountAndSaysWhichItWas() {
        PaperReproduction p = reproduction();
        List<Plan> plans = List.of(p.plan("allgather-direct", 4, 1), p.plan("allgather-direct", 4, 2));
        double a = p.time(plans.get(0), Policy.UA, 100_000L), b = p.time(plans.get(1), Policy.UA, 100_000L);
        double[] best = p.best(plans, Policy.UA, 100_000L);
        assertEquals(Math.min(a, b), best[0]);
        assertEquals(a <= b ? 0 : 1, (int) best[1]);
        assertEquals("1.50x (112)", new BestThreadblocks.Best(2000, 112).cell(3000));
    }
}
