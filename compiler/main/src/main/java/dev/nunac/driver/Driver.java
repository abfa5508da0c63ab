package dev.nunac.driver;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.nar.NarChoice;
import dev.nunac.passes.nar.NarSelection;
import dev.nunac.passes.place.PhysicalPlacement;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.Topology;
import java.util.function.BiConsumer;

/** Runs the compile pipeline on a plan: check, access analysis, allocation, NAR, placement, realisation. */
public final class Driver {
    private Driver() {}

    /** The passes in order; the pipeline verifies the order when built. */
    public static final Pipeline PIPELINE = Pipeline.of(new CheckPass(), new AccessAnalysis(), new LogicalAllocation(),
            new NarSelection(), new PhysicalPlacement(), new Realisation());

    /** Runs the cost model on a finished compilation. */
    public static dev.nunac.passes.cost.SimResult simulate(CompileResult r, dev.nunac.passes.cost.SimConfig cfg) {
        return dev.nunac.passes.cost.Simulator.simulate(r.plan(), r.accesses(), r.placement(), r.topology(), cfg);
    }

    public static CompileResult compile(Plan plan, Topology topo, PlacementOptions options, boolean verify,
                                        String dumpAfter, BiConsumer<String, String> dump) {
        Diagnostics diags = new Diagnostics();
        Compilation c = new Compilation(plan, diags);
        c.put(TopologyInput.KEY, topo);
        c.put(PlacementOptions.KEY, options);
        PIPELINE.run(c, verify, dumpAfter, dump);
        diags.throwIfErrors(ErrorKind.PLAN);
        return new CompileResult(c.plan(), topo, options, c.get(Accesses.KEY), c.get(LogicalGroups.KEY),
                c.get(NarChoice.KEY), c.get(Placement.KEY), c.get(Realised.KEY),
                c.find(NarSelection.CHOSEN_SIMULATION).filter(s -> c.get(Placement.KEY).granularity() == c.get(NarChoice.KEY).granularity())
                        .orElse(null),
                java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(c.timings())));
    }

    /**
     * Places an already compiled plan again under another policy, reusing its check, access
     * analysis and logical allocation (which no policy changes): for the baselines a report
     * compares against.
     */
    public static Placement placeAgain(CompileResult r, PlacementOptions options) {
        NarChoice nar = NarSelection.select(r.topology(), options, r.plan(), r.accesses(), r.groups());
        return PhysicalPlacement.place(r.plan(), r.accesses(), r.groups(), nar, r.topology(), options);
    }
}
