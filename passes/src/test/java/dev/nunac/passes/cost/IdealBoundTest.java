package dev.nunac.passes.cost;

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

/** The bound no placement beats. */
class IdealBoundTest {
    @Test
    void noPlacementIsSimulatedFasterThanTheBound() {
        Plan plan = PlanBuilder.directAllgather(4);
        PlacementInput in = Fixtures.input(plan, Topologies.nuna4die(), 1 << 20);
        IdealBound.Bound bound = IdealBound.of(in);
        assertTrue(bound.ns() > 0 && !bound.limit().isEmpty(), bound::toString);
        for (Policy policy : new Policy[] {Policy.UA, Policy.NAP_NAR, Policy.BALANCED}) {
            Placement p = Placer.place(in, Fixtures.groups(in), policy, policy.nar ? 4 : 1);
            double sim = Simulator.simulate(plan, in.accesses(), p, in.topology()).completionNs();
            assertTrue(sim >= bound.ns() * (1 - 1e-9), policy.id() + ": simulated " + sim + " ns, bound " + bound.ns() + " ns");
        }
    }

    @Test
    void theBoundGrowsWithSize() {
        Plan plan = PlanBuilder.directAllgather(4);
        double small = IdealBound.of(Fixtures.input(plan, Topologies.nuna4die(), 64 << 10)).ns();
        double large = IdealBound.of(Fixtures.input(plan, Topologies.nuna4die(), 4 << 20)).ns();
        assertTrue(large > small, small + " ns, then " + large + " ns");
    }
}
