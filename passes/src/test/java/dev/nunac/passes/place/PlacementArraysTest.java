package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.pass.Compilation;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.cost.AnalyticModel;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search's placements own their arrays: the passes after it (realisation) and the cost
 * models that read them (analytic estimate, simulation) leave them as they were.
 */
class PlacementArraysTest {
    /** Every array of a placement as text: its dump (CUs, domains, groups, page stacks) and the page domains and slots. */
    static String state(Placement p) {
        return p.dump() + p.pages().stream().map(pm -> Arrays.toString(pm.domain()) + Arrays.toString(pm.slot())).toList();
    }

    @Test
    void nothingAfterTheSearchWritesItsPlacements() {
        var plan = PlanBuilder.directAllgather(4);
        var topo = Topologies.nuna4die();
        Compilation c = Fixtures.run(Fixtures.compilation(plan, topo, PlacementOptions.defaults()), 4);
        SearchResult s = c.get(SearchResult.KEY);
        String chosen = state(s.chosen().placement()), baseline = state(s.baseline().placement());
        new Realisation().run(c);
        PlacementInput in = Fixtures.input(plan, topo, PlacementOptions.defaults().sizeBytes());
        for (Placement p : List.of(s.chosen().placement(), s.baseline().placement())) {
            new AnalyticModel().estimate(in, p);
            Simulator.simulate(plan, in.accesses(), p, topo);
            Realisation.widestGrid(plan, p, topo);
        }
        assertEquals(chosen, state(s.chosen().placement()));
        assertEquals(baseline, state(s.baseline().placement()));
    }
}
