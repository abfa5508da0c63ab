package dev.nunac.passes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.passes.Fixtures;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The local search over NAR domains follows its cost model and stops when nothing helps. */
class RefinementTest {
    static final int K = 4;

    /** A model that finds every threadblock outside domain {@code good} slow: the first such one delivers last. */
    record FavoursDomain(int good) implements CostModel {
        @Override
        public String name() {
            return "favours " + good;
        }

        @Override
        public Estimate estimate(PlacementInput in, Placement p) {
            int[] d = p.domainOfTb();
            int slow = (int) Arrays.stream(d).filter(x -> x != good).count();
            int last = 0;
            while (last < d.length - 1 && d[last] == good) last++;
            return Estimate.of(1 + slow, last);
        }
    }

    static PlacementInput in() {
        return Fixtures.input(PlanBuilder.directAllgather(3), Topologies.nuna4die(), 1 << 20);
    }

    static Scored base(PlacementInput in, LogicalGroups groups) {
        Placement p = Placer.place(in, groups, Policy.BALANCED, K);
        return new Scored(new Candidate(Policy.BALANCED, K), p, 0, null);
    }

    @Test
    void movesTheLastThreadblockToTheDomainTheModelPrefers() {
        PlacementInput in = in();
        LogicalGroups groups = LogicalAllocation.allocate(in.accesses(), false);
        Scored base = base(in, groups);
        CostModel model = new FavoursDomain(3);
        Scored refined = Refinement.refine(in, groups, base, model, 2);
        assertTrue(refined != null && refined.candidate().refined(), "a move lowers the estimate");
        assertTrue(refined.analyticNs() < model.estimate(in, base.placement()).ns());
        assertEquals(refined.analyticNs(), model.estimate(in, refined.placement()).ns(), "the score is the model's estimate of the placement kept");
    }

    @Test
    void noMoveThatHelpsMeansNoRefinedCandidate() {
        PlacementInput in = in();
        LogicalGroups groups = LogicalAllocation.allocate(in.accesses(), false);
        CostModel flat = new CostModel() {
            @Override
            public String name() {
                return "flat";
            }

            @Override
            public Estimate estimate(PlacementInput i, Placement p) {
                return Estimate.of(100, 0);
            }
        };
        assertNull(Refinement.refine(in, groups, base(in, groups), flat, 8));
    }
}
