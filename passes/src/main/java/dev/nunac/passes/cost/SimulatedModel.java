package dev.nunac.passes.cost;

import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;

/** The discrete-event simulator ({@link Simulator}) as a cost model. */
public record SimulatedModel(SimConfig config) implements CostModel {
    public static SimulatedModel defaults() {
        return new SimulatedModel(SimConfig.defaults());
    }

    @Override
    public String name() {
        return "simulation";
    }

    @Override
    public Estimate estimate(PlacementInput in, Placement placement) {
        SimResult r = Simulator.simulate(in.plan(), in.accesses(), placement, in.topology(), config);
        return new Estimate(r.completionNs(), r, -1);
    }

    @Override
    public Opening opening(PlacementInput in, Placement placement, double untilNs) {
        return Simulator.opening(in.plan(), in.accesses(), placement, in.topology(), config, untilNs);
    }

    @Override
    public long cost(PlacementInput in, Placement placement) {
        return Simulator.work(in.plan(), placement, in.topology(), config);
    }
}
