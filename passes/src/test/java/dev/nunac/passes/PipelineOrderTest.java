package dev.nunac.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.testkit.PlanBuilder;
import java.util.Set;

import dev.nunac.pass.Pipeline;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The passes' declared stages chain in the driver's order and in no other; the products each reads are declared. */
class PipelineOrderTest {
    @Test
    void thePassesChainInTheDriversOrder() {
        assertEquals(List.of("check", "access-analysis", "logical-allocation", "placement-search", "realisation"),
                Pipeline.of(Fixtures.ALL).names());
    }

    @Test
    void aPassBeforeWhatItRequiresIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of(Fixtures.ALL.get(1), Fixtures.ALL.get(0)));
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of(Fixtures.ALL.get(0), Fixtures.ALL.get(3)));
    }

    @Test
    void everyPassDeclaresTheProductsItReads() {
        List<Set<Key<?>>> reads = Fixtures.ALL.stream().map(p -> p.reads()).toList();
        assertEquals(List.of(Set.of(), Set.of(), Set.of(Accesses.KEY),
                Set.of(PlacementOptions.KEY, Accesses.KEY, TopologyInput.KEY, LogicalGroups.KEY),
                Set.of(Placement.KEY, TopologyInput.KEY)), reads);
    }

    @Test
    void aCompilationWithoutTheOptionsStopsBeforeTheSearchRuns() {
        // the topology given, the placement options forgotten: a bug of the caller, named before the search starts
        Compilation c = new Compilation(PlanBuilder.directAllgather(2), new Diagnostics());
        c.put(TopologyInput.KEY, dev.nunac.testkit.Topologies.nuna4die());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Pipeline.of(Fixtures.ALL).run(c, true, null, null));
        assertEquals("pass 'placement-search' reads the product 'placement-options', which neither the caller nor an earlier pass"
                + " put into the compilation", e.getMessage());
        assertEquals(List.of("check", "access-analysis", "logical-allocation"), List.copyOf(c.timings().keySet()));
    }
}
