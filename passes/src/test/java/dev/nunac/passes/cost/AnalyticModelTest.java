package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Plan;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import org.junit.jupiter.api.Test;

/** The closed-form estimate the search ranks candidates by. */
class AnalyticModelTest {
    static double estimate(Plan plan, long size, Policy policy, int k) {
        PlacementInput in = Fixtures.input(plan, Topologies.nuna4die(), size);
        Placement p = Placer.place(in, Fixtures.groups(in), policy, k);
        return new AnalyticModel().estimate(in, p).ns();
    }

    @Test
    void theEstimateGrowsWithSize() {
        Plan plan = PlanBuilder.directAllgather(4);
        double small = estimate(plan, 64 << 10, Policy.UA, 1), large = estimate(plan, 4 << 20, Policy.UA, 1);
        assertTrue(small > 0 && large > 4 * small, small + " ns, then " + large + " ns");
    }

    @Test
    void theEstimateIsNeverBelowTheIdealBound() {
        Plan plan = PlanBuilder.directAllgather(4);
        PlacementInput in = Fixtures.input(plan, Topologies.nuna4die(), 1 << 20);
        double ideal = IdealBound.of(in).ns();
        for (Policy policy : new Policy[] {Policy.UA, Policy.NAP_NAR, Policy.BALANCED}) {
            double e = estimate(plan, 1 << 20, policy, policy.nar ? 4 : 1);
            assertTrue(e >= ideal * (1 - 1e-9), policy.id() + ": " + e + " ns below the bound " + ideal + " ns");
        }
    }

    @Test
    void oneModelEstimatesThePlansItIsGivenInAnyOrder() {
        // the model keeps the last plan's shape: a second plan must not be estimated with the first's
        Plan a = PlanBuilder.directAllgather(4), b = PlanBuilder.directAllgather(2);
        PlacementInput ia = Fixtures.input(a, Topologies.nuna4die(), 1 << 20), ib = Fixtures.input(b, Topologies.nuna4die(), 1 << 20);
        Placement pa = Placer.place(ia, Fixtures.groups(ia), Policy.UA, 1), pb = Placer.place(ib, Fixtures.groups(ib), Policy.UA, 1);
        AnalyticModel shared = new AnalyticModel();
        double first = shared.estimate(ia, pa).ns();
        shared.estimate(ib, pb);
        assertEquals(first, shared.estimate(ia, pa).ns());
        assertEquals(new AnalyticModel().estimate(ib, pb).ns(), shared.estimate(ib, pb).ns());
    }
}
