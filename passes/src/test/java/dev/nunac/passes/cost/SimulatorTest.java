package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Plan;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Topology;
import org.junit.jupiter.api.Test;

/** The simulator's time follows the bytes and the path; the same inputs give the same time. */
class SimulatorTest {
    static SimResult simulate(Plan plan, Topology topo, long size) {
        PlacementInput in = Fixtures.input(plan, topo, size);
        Placement p = Placer.place(in, Fixtures.groups(in), Policy.UA, 1);
        return Simulator.simulate(plan, in.accesses(), p, topo);
    }

    @Test
    void timeGrowsWithSize() {
        Plan plan = PlanBuilder.directAllgather(3);
        Topology topo = Topologies.nuna4die();
        // small transfers are latency-bound, large ones bandwidth-bound
        double small = simulate(plan, topo, 64 << 10).completionNs();
        double medium = simulate(plan, topo, 1 << 20).completionNs();
        double large = simulate(plan, topo, 4 << 20).completionNs();
        assertTrue(small > 0 && medium > small && large > 2 * medium, small + ", " + medium + ", " + large + " ns");
    }

    @Test
    void aSingleFlitTakesItsPathsLatencies() {
        // one 256 B chunk per rank on the line: a store crosses from a CU to the port at x=0 and
        // from the port to the stack at x=3, so it takes at least the fixed latencies on the way
        SimResult s = simulate(PlanBuilder.directAllgather(2), Topologies.line(), 512);
        double fixed = 100 /* CU to NoC */ + 400 /* switch */ + 3 * 10 /* three hops to the stack */ + 50 /* memory */;
        assertEquals(2, s.storeLatency().flits(), 1e-9, "one flit stored on each rank");
        assertTrue(s.storeLatency().minNs() > fixed, s.storeLatency() + " vs " + fixed);
    }

    @Test
    void theSimulatedModelIsTheSimulatorsCompletionTime() {
        Plan plan = PlanBuilder.directAllgather(2);
        PlacementInput in = Fixtures.input(plan, Topologies.nuna4die(), 1 << 20);
        Placement p = Placer.place(in, Fixtures.groups(in), Policy.NAP_NAR, 2);
        SimulatedModel model = SimulatedModel.defaults();
        assertEquals(Simulator.simulate(plan, in.accesses(), p, in.topology()).completionNs(), model.estimate(in, p).ns());
        assertTrue(model.cost(in, p) > 0, "a simulation costs events");
    }

    @Test
    void anOpeningStretchIsTheWholeRunCutShort() {
        Plan plan = PlanBuilder.directAllgather(3);
        PlacementInput in = Fixtures.input(plan, Topologies.nuna4die(), 4 << 20);
        Placement p = Placer.place(in, Fixtures.groups(in), Policy.UA, 1);
        SimResult whole = Simulator.simulate(plan, in.accesses(), p, in.topology());
        SimConfig cfg = SimConfig.defaults();
        Opening none = Simulator.opening(plan, in.accesses(), p, in.topology(), cfg, 0);
        Opening quarter = Simulator.opening(plan, in.accesses(), p, in.topology(), cfg, whole.completionNs() / 4);
        Opening half = Simulator.opening(plan, in.accesses(), p, in.topology(), cfg, whole.completionNs() / 2);
        Opening all = Simulator.opening(plan, in.accesses(), p, in.topology(), cfg, 2 * whole.completionNs());
        assertEquals(0, none.landedFlits());
        assertTrue(0 < quarter.landedFlits() && quarter.landedFlits() < half.landedFlits() && half.landedFlits() < all.landedFlits(),
                quarter + " " + half + " " + all);
        assertEquals(quarter.landedFlits(), half.halfwayFlits(), 1e-9, "half a stretch in, the longer one had landed what the shorter did");
        // past the end every flit of the plan has landed (the store histogram counts them all here), in the whole run's events
        assertEquals(whole.storeLatency().flits(), all.landedFlits(), 1e-6);
        assertEquals(whole.events(), all.events());
        assertTrue(quarter.events() < half.events() && half.events() < all.events());
        assertEquals(half, SimulatedModel.defaults().opening(in, p, whole.completionNs() / 2), "the simulated model opens as the simulator does");
    }

    @Test
    void sameInputsGiveTheSameTime() {
        Plan plan = PlanBuilder.directAllgather(3);
        Topology topo = Topologies.nuna4die();
        assertEquals(simulate(plan, topo, 1 << 20).completionNs(), simulate(plan, topo, 1 << 20).completionNs());
    }
}
