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
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.realise.Realised;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.topology.Topology;
import java.util.function.BiConsumer;

/** Runs the compile pipeline on a plan: check, access analysis, allocation, placement search, realisation. */
public final class Driver {
    private Driver() {}

    /** The passes in order; the pipeline verifies the order when built. */
    public static final Pipeline PIPELINE = Pipeline.of(new CheckPass(), new AccessAnalysis(), new LogicalAllocation(),
            new PlacementSearch(), new Realisation());

    /** Runs the cost model on a placement of a finished compilation. */
    public static SimResult simulate(CompileResult r, Placement p, SimConfig cfg) {
        return Simulator.simulate(r.plan(), r.accesses(), p, r.topology(), cfg);
    }

    /** The chosen placement's simulation beside a background GEMM on every GPU (null: none). */
    public static SimResult simulate(CompileResult r, SimConfig cfg, dev.nunac.passes.cost.Gemm background) {
        if (background == null) return simulate(r, cfg);
        return Simulator.simulate(r.plan(), r.accesses(), r.placement(), r.topology(), cfg, background);
    }

    /** The chosen placement's simulation: the search's own when it ran one, else a new run. */
    public static SimResult simulate(CompileResult r, SimConfig cfg) {
        SimResult s = r.simulated();
        return s != null && cfg.equals(SimConfig.defaults()) ? s : simulate(r, r.placement(), cfg);
    }

    public static CompileResult compile(Plan plan, Topology topo, PlacementOptions options, boolean verify,
                                        String dumpAfter, BiConsumer<String, String> dump) {
        return compile(plan, topo, options, PlacementSearch.Settings.defaults(), verify, dumpAfter, dump);
    }

    /** As above, the placement search spending {@code settings} (a comparison's shared timings). */
    public static CompileResult compile(Plan plan, Topology topo, PlacementOptions options, PlacementSearch.Settings settings,
                                        boolean verify, String dumpAfter, BiConsumer<String, String> dump) {
        // the options the topology refuses (a --nar granularity it lacks) are refused before any pass runs
        PlacementSearch.granularities(topo, options);
        Diagnostics diags = new Diagnostics();
        Compilation c = new Compilation(plan, diags);
        c.put(TopologyInput.KEY, topo);
        c.put(PlacementOptions.KEY, options);
        c.put(PlacementSearch.SETTINGS, settings);
        PIPELINE.run(c, verify, dumpAfter, dump);
        diags.throwIfErrors(ErrorKind.PLAN);
        return new CompileResult(c.plan(), topo, options, c.get(Accesses.KEY), c.get(LogicalGroups.KEY),
                c.get(SearchResult.KEY), c.get(Realised.KEY),
                java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(c.timings())));
    }

    /** The compilation as if the search had come to {@code search}: its chosen placement realised. */
    public static CompileResult with(CompileResult r, SearchResult search, PlacementOptions options) {
        return new CompileResult(r.plan(), r.topology(), options, r.accesses(), r.groups(), search,
                Realisation.realise(r.plan(), search.chosen().placement(), r.topology()), r.nanosByPass(), null, r.source());
    }

    /**
     * The search again on a compiled plan under other options (another size, other policies),
     * reusing its check, access analysis and logical allocation, which no option changes.
     */
    public static SearchResult searchAgain(CompileResult r, PlacementOptions options) {
        return PlacementSearch.search(r.input(), r.groups(), options);
    }
}
