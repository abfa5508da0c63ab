package dev.nunac.passes.search;

import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.Placement;

/**
 * A placed candidate and what the cost models say of it: the analytic estimate always, the
 * simulation when the search ran one (else null).
 */
public record Scored(Candidate candidate, Placement placement, double analyticNs, Estimate simulated) {
    public boolean wasSimulated() {
        return simulated != null;
    }

    /** The estimate of the given model: the simulation's when {@code simulation} (NaN if none ran), else the analytic one. */
    public double ns(boolean simulation) {
        return simulation ? (simulated == null ? Double.NaN : simulated.ns()) : analyticNs;
    }

    Scored withSimulation(Estimate e) {
        return new Scored(candidate, placement, analyticNs, e);
    }

    /** The same estimates without the placement (kept only for the chosen candidate and the baseline). */
    Scored withoutPlacement() {
        return new Scored(candidate, null, analyticNs, simulated == null ? null : new Estimate(simulated.ns(), null, simulated.lastTb()));
    }
}
