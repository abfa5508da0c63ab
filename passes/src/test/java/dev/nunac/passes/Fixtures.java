package dev.nunac.passes;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Pass;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.topology.Topology;
import java.util.List;

/** Runs the passes on a built plan the way the driver does, with the IR verified after each. */
public final class Fixtures {
    private Fixtures() {}

    /** Every pass, in the driver's order. */
    public static final List<Pass> ALL = List.of(new CheckPass(), new AccessAnalysis(), new LogicalAllocation(),
            new PlacementSearch(), new Realisation());

    /** A compilation of {@code plan} onto {@code topo} under {@code opt}, before any pass ran. */
    public static Compilation compilation(Plan plan, Topology topo, PlacementOptions opt) {
        Compilation c = new Compilation(plan, new Diagnostics());
        c.put(TopologyInput.KEY, topo);
        c.put(PlacementOptions.KEY, opt);
        return c;
    }

    /** Runs the first {@code passes} passes of {@link #ALL}; fails the test if one reports an error. */
    public static Compilation run(Compilation c, int passes) {
        boolean ok = Pipeline.of(ALL.subList(0, passes)).run(c, true, null, null);
        assertFalse(!ok || c.diagnostics().hasErrors(), () -> "the passes reported: " + c.diagnostics().all());
        return c;
    }

    /** The plan after the first {@code passes} passes that need no topology (check, access analysis, logical allocation). */
    public static Compilation upTo(Plan plan, int passes) {
        if (passes > 3) throw new IllegalArgumentException("the placement search needs a topology and options");
        return run(new Compilation(plan, new Diagnostics()), passes);
    }

    /** What placement works on: the plan's accesses on {@code topo} at {@code sizeBytes}. */
    public static PlacementInput input(Plan plan, Topology topo, long sizeBytes) {
        return new PlacementInput(plan, AccessAnalysis.analyse(plan), topo, sizeBytes);
    }

    /** The paper's logical groups of the input's plan. */
    public static LogicalGroups groups(PlacementInput in) {
        return LogicalAllocation.allocate(in.accesses());
    }

    public static Accesses accesses(Compilation c) {
        return c.get(Accesses.KEY);
    }
}
