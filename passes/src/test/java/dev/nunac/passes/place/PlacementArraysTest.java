package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.nunac.pass.Compilation;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.cost.AnalyticModel;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search's placements own their arrays: the passes after it (realisation) and the cost
 * models that read them (analytic estimate, simulation) leave them as they were.
 */
class PlacementArraysTest {
    static List<int[]> snapshot(Placement p) {
        List<int[]> out = new ArrayList<>(List.of(p.cuOfTb().clone(), p.domainOfTb().clone(), p.groupOfTb().clone()));
        for (PageMap pm : p.pages()) {
            out.add(pm.stack().clone());
            out.add(pm.domain().clone());
            if (pm.slot() != null) out.add(pm.slot().clone());
        }
        return out;
    }

    static void assertUnchanged(List<int[]> before, Placement p) {
        List<int[]> after = snapshot(p);
        for (int i = 0; i < before.size(); i++) assertArrayEquals(before.get(i), after.get(i), "array " + i);
    }

    @Test
    void nothingAfterTheSearchWritesItsPlacements() {
        var plan = PlanBuilder.directAllgather(4);
        var topo = Topologies.nuna4die();
        Compilation c = Fixtures.run(Fixtures.compilation(plan, topo, PlacementOptions.defaults()), 4);
        SearchResult s = c.get(SearchResult.KEY);
        List<int[]> chosen = snapshot(s.chosen().placement()), baseline = snapshot(s.baseline().placement());
        new Realisation().run(c);
        PlacementInput in = Fixtures.input(plan, topo, PlacementOptions.defaults().sizeBytes());
        for (Placement p : List.of(s.chosen().placement(), s.baseline().placement())) {
            new AnalyticModel().estimate(in, p);
            Simulator.simulate(plan, in.accesses(), p, topo);
            Realisation.widestGrid(plan, p, topo);
        }
        assertUnchanged(chosen, s.chosen().placement());
        assertUnchanged(baseline, s.baseline().placement());
    }
}
