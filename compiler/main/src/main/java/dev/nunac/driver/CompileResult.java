package dev.nunac.driver;

import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.realise.Realised;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.topology.Topology;

/**
 * Everything one compilation produced; immutable, and all an emitter needs. {@code search} holds
 * every candidate the placement search estimated, the chosen placement and the UA baseline;
 * {@code tuning}, when --tune chose this compile among others, what it tried (else null).
 * {@code nanosByPass} is the wall time of each pass (never part of an output file, so outputs
 * stay deterministic). {@code source}, when the caller kept it, is the plan file as read (else
 * null): outputs that rewrite the file rather than export the IR need it.
 */
public record CompileResult(Plan plan, Topology topology, PlacementOptions options, Accesses accesses,
                            LogicalGroups groups, SearchResult search, Realised realised,
                            java.util.Map<String, Long> nanosByPass, String tuning, PlanSource source) {
    /** A result without the plan file. */
    public CompileResult(Plan plan, Topology topology, PlacementOptions options, Accesses accesses, LogicalGroups groups,
                         SearchResult search, Realised realised, java.util.Map<String, Long> nanosByPass, String tuning) {
        this(plan, topology, options, accesses, groups, search, realised, nanosByPass, tuning, null);
    }

    /** A result that no --tune chose. */
    public CompileResult(Plan plan, Topology topology, PlacementOptions options, Accesses accesses, LogicalGroups groups,
                         SearchResult search, Realised realised, java.util.Map<String, Long> nanosByPass) {
        this(plan, topology, options, accesses, groups, search, realised, nanosByPass, null, null);
    }

    /** The same result, chosen by --tune among others: {@code summary} says how. */
    public CompileResult withTuning(String summary) {
        return new CompileResult(plan, topology, options, accesses, groups, search, realised, nanosByPass, summary, source);
    }

    /** The same result, with the plan file it was compiled from. */
    public CompileResult withSource(PlanSource s) {
        return new CompileResult(plan, topology, options, accesses, groups, search, realised, nanosByPass, tuning, s);
    }

    /** The chosen placement. */
    public Placement placement() {
        return search.chosen().placement();
    }

    /** The UA baseline's placement, which the reports compare against. */
    public Placement baseline() {
        return search.baseline().placement();
    }

    /** The cost model's run of the chosen placement, when the search simulated it; else null. */
    public dev.nunac.passes.cost.SimResult simulated() {
        var e = search.chosen().simulated();
        return e == null ? null : e.simulation();
    }

    public PlacementInput input() {
        return new PlacementInput(plan, accesses, topology, options.sizeBytes(), options.repack());
    }
}
