package dev.nunac.passes.cost;

import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;

/**
 * An estimate of a placed plan's completion time. Two models implement it: {@link AnalyticModel},
 * a closed form that costs microseconds per transfer and ranks candidates, and
 * {@link SimulatedModel}, the discrete-event simulation that times the few best. Both are pure:
 * the same input gives the same estimate.
 */
public interface CostModel {
    /** Short name, as reports print it: {@code analytic}, {@code simulation}. */
    String name();

    Estimate estimate(PlacementInput in, Placement placement);

    /** A rough count of the work one estimate of this placement costs (for budgets), in simulated events. */
    default long cost(PlacementInput in, Placement placement) {
        return 0;
    }

    /** The first {@code untilNs} of a simulation of the placement ({@link Opening}); null when the model does not simulate. */
    default Opening opening(PlacementInput in, Placement placement, double untilNs) {
        return null;
    }
}
