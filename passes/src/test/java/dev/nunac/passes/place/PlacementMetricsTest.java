package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.passes.Fixtures;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import org.junit.jupiter.api.Test;

/** What a placement bought, as its statistics report it. */
class PlacementMetricsTest {
    @Test
    void napBringsThreadblocksNearerTheirPortsThanUa() {
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), Topologies.nuna4die(), 1 << 20);
        PlacementStats ua = Placer.place(in, Fixtures.groups(in), Policy.UA, 1).stats();
        PlacementStats nap = Placer.place(in, Fixtures.groups(in), Policy.NAP_NAR, 4).stats();
        assertTrue(nap.meanCuPortHops() < ua.meanCuPortHops(), "NAP " + nap + ", UA " + ua);
        assertTrue(nap.maxCuPortHops() >= nap.meanCuPortHops());
    }

    @Test
    void aSmallPlanNeedsNoSpillsOrOverflows() {
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(2), Topologies.nuna4die(), 64 << 10);
        PlacementStats s = Placer.place(in, Fixtures.groups(in), Policy.NAP_NAR, 2).stats();
        assertEquals(0, s.cuOverflows() + s.stackOverflows(), s::toString);
    }
}
