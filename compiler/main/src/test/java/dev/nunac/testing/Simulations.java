package dev.nunac.testing;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;

/** A plan placed under one policy and simulated with the default settings, chunks packed as the paper assumes. */
public final class Simulations {
    private Simulations() {}

    public static SimResult sim(Topology t, Plan plan, Policy p, long size, int nar) {
        CompileResult r = Driver.compile(plan, t, new PlacementOptions(p, nar, size).withRepack(true), false, null, null);
        return Driver.simulate(r, SimConfig.defaults());
    }
}
