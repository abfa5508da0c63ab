package dev.nunac.frontend.dsl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.testing.TestPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every example passes the checker for random sizes; breaking one destination breaks it. */
class ExamplesPropertiesTest {
    record Case(String example, int ranks, int tbsPerPeer, int groupSize) {
        Map<String, String> defines() {
            return switch (example) {
                case "allreduce-ring" -> Map.of("ranks", "" + ranks, "inst", "" + tbsPerPeer);
                case "allreduce-hierarchical" -> Map.of("ranks", "" + ranks, "ranks_per_node", "" + groupSize);
                default -> Map.of("ranks", "" + ranks, "tbs_per_peer", "" + tbsPerPeer);
            };
        }

        Plan load() {
            return PlanLoader.load(TestPaths.examples().resolve(example + ".msccl"), defines(), Limits.DEFAULT);
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> ex = Arbitraries.of(IrGoldenTest.EXAMPLES);
        return Combinators.combine(ex, Arbitraries.integers().between(2, 20), Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(1, 4)).as((e, r, t, g) -> {
                    int groups = g;
                    // hierarchical: ranks_per_node must divide ranks; pick the g-th divisor
                    List<Integer> divisors = new ArrayList<>();
                    for (int d = 1; d <= r; d++) if (r % d == 0) divisors.add(d);
                    return new Case(e, r, t, divisors.get(groups % divisors.size()));
                });
    }

    @Property(tries = 40)
    void everyExamplePassesTheChecker(@ForAll("cases") Case c) {
        Diagnostics d = new Diagnostics();
        CheckPass.check(c.load(), d);
        assertFalse(d.hasErrors(), () -> c + ": " + d.all());
    }

    @Property(tries = 40)
    void changingOneDestinationIndexFailsTheCheck(@ForAll("cases") Case c, @ForAll("picks") long pick, @ForAll("picks") long shift) {
        Plan plan = c.load();
        List<int[]> writers = new ArrayList<>();
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock t : rp.threadblocks()) {
                for (Step s : t.steps()) if (s.dst() != null) writers.add(new int[] {rp.rank(), t.id(), s.index()});
            }
        }
        int[] w = writers.get((int) (pick % writers.size()));
        RankPlan rp = plan.rank(w[0]);
        Step s = rp.tb(w[1]).steps().get(w[2]);
        ChunkRef d = s.dst();
        int size = dev.nunac.ir.BufferLayout.capacity(plan, d.rank(), d.buffer());
        int room = size - d.count() + 1;
        if (room < 2) return; // nowhere else to write
        int moved = (int) ((d.index() + 1 + shift % (room - 1)) % room);
        Step mutated = new Step(s.index(), s.op(), s.src(), new ChunkRef(d.rank(), d.buffer(), moved, d.count()), s.peer(),
                s.deps(), s.hasDep(), s.pos());
        List<Step> steps = new ArrayList<>(rp.tb(w[1]).steps());
        steps.set(w[2], mutated);
        List<Threadblock> tbs = new ArrayList<>(rp.threadblocks());
        tbs.set(w[1], rp.tb(w[1]).withSteps(steps));
        List<RankPlan> rps = new ArrayList<>(plan.rankPlans());
        rps.set(w[0], new RankPlan(rp.rank(), rp.buffers(), tbs));
        Diagnostics diags = new Diagnostics();
        CheckPass.check(plan.withRankPlans(rps), diags);
        assertTrue(diags.hasErrors(), () -> c + ": moving " + d + " to index " + moved + " went unnoticed");
    }

    @Provide
    Arbitrary<Long> picks() {
        return Arbitraries.longs().between(0, 1_000_000);
    }
}
