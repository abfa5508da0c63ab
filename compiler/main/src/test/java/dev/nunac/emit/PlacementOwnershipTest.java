package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.Nunac;
import dev.nunac.driver.CompileResult;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.testing.TestPaths;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A placement owns its index-aligned arrays and nothing writes them once it is built: emitting
 * every output (whole-plan, compact and per-rank) and simulating the chosen placement and the
 * baseline leave the search result's arrays as they were.
 */
class PlacementOwnershipTest {
    /** Every array of a placement as text: its dump (CUs, domains, groups, page stacks) and the page domains and slots. */
    static String state(Placement p) {
        return p.dump() + p.pages().stream().map(pm -> Arrays.toString(pm.domain()) + Arrays.toString(pm.slot())).toList();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"allreduce-ring, nuna-4die, 4", "alltoall-direct, mi300x, 4", "allgather-direct, mi300x, 8"})
    void noOutputOrSimulationWritesThePlacement(String plan, String topo, int ranks) {
        CompileResult r = Nunac.compile(TestPaths.examples().resolve(plan + ".msccl"), Map.of("ranks", String.valueOf(ranks)), topo,
                PlacementOptions.defaults());
        String chosen = state(r.placement()), baseline = state(r.baseline());
        EnumSet<Output> outputs = EnumSet.of(Output.JSON, Output.HEADER, Output.REPORT, Output.SVG, Output.LAUNCH);
        Emission.render(r, outputs);
        Emission.render(r, outputs, EmitSettings.DEFAULT.withCompact(true));
        PerRankOutputs.render(r, EmitSettings.DEFAULT, true, true, true);
        Simulator.simulate(r.plan(), r.accesses(), r.placement(), r.topology());
        Simulator.simulate(r.plan(), r.accesses(), r.baseline(), r.topology());
        assertEquals(chosen, state(r.placement()), "the chosen placement");
        assertEquals(baseline, state(r.baseline()), "the baseline");
    }
}
