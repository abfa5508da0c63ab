package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.Nunac;
import dev.nunac.driver.CompileResult;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.testing.TestPaths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A placement owns its index-aligned arrays and nothing writes them once it is built: emitting
 * every output (whole-plan, compact and per-rank) and simulating the chosen placement and the
 * baseline leave the search result's arrays as they were.
 */
class PlacementOwnershipTest {
    /** A deep copy of every array of a placement. */
    private static List<int[]> snapshot(Placement p) {
        List<int[]> out = new ArrayList<>(List.of(p.cuOfTb().clone(), p.domainOfTb().clone(), p.groupOfTb().clone()));
        for (PageMap pm : p.pages()) {
            out.add(pm.stack().clone());
            out.add(pm.domain().clone());
            if (pm.slot() != null) out.add(pm.slot().clone());
        }
        return out;
    }

    private static void assertSame(List<int[]> before, Placement p, String which) {
        List<int[]> after = snapshot(p);
        assertEquals(before.size(), after.size(), which);
        for (int i = 0; i < before.size(); i++) assertArrayEquals(before.get(i), after.get(i), which + ", array " + i);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"allreduce-ring, nuna-4die, 4", "alltoall-direct, mi300x, 4", "allgather-direct, mi300x, 8"})
    void noOutputOrSimulationWritesThePlacement(String plan, String topo, int ranks) {
        CompileResult r = Nunac.compile(TestPaths.examples().resolve(plan + ".msccl"), Map.of("ranks", String.valueOf(ranks)), topo,
                PlacementOptions.defaults());
        List<int[]> chosen = snapshot(r.placement()), baseline = snapshot(r.baseline());
        EnumSet<Output> outputs = EnumSet.of(Output.JSON, Output.HEADER, Output.REPORT, Output.SVG, Output.LAUNCH);
        Emission.render(r, outputs);
        Emission.render(r, outputs, EmitSettings.DEFAULT.withCompact(true));
        PerRankOutputs.render(r, EmitSettings.DEFAULT, true, true, true);
        Simulator.simulate(r.plan(), r.accesses(), r.placement(), r.topology());
        Simulator.simulate(r.plan(), r.accesses(), r.baseline(), r.topology());
        assertSame(chosen, r.placement(), "the chosen placement");
        assertSame(baseline, r.baseline(), "the baseline");
    }
}
