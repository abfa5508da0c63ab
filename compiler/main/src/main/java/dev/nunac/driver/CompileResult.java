package dev.nunac.driver;

import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.nar.NarChoice;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.Topology;

/**
 * Everything one compilation produced; immutable, and all an emitter needs. {@code simulated}
 * is the cost model's run of the placement when NAR auto simulated it, else null.
 * {@code nanosByPass} is the wall time of each pass (never part of an output file, so outputs
 * stay deterministic).
 */
public record CompileResult(Plan plan, Topology topology, PlacementOptions options, Accesses accesses,
                            LogicalGroups groups, NarChoice nar, Placement placement, Realised realised,
                            dev.nunac.passes.cost.SimResult simulated, java.util.Map<String, Long> nanosByPass) {}
