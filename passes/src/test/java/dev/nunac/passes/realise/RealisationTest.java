package dev.nunac.passes.realise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Dispatch;
import dev.nunac.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the hardware is handed: grid slots, CU masks, stream masks. */
class RealisationTest {
    /** A placement and what realising it gives. */
    record Launch(Placement placement, Realised realised) {}

    static Launch launch(Plan plan, Topology topo, Policy policy, int k) {
        PlacementInput in = Fixtures.input(plan, topo, 1 << 20);
        Placement p = Placer.place(in, Fixtures.groups(in), policy, k);
        return new Launch(p, Realisation.realise(plan, p, topo));
    }

    /** MI300X: modulo dispatch over 8 dies; each of 8 ranks has 7 threadblocks. */
    static final Topology MI300X = Topologies.bundled("mi300x");
    static final Launch NAP_ON_MI300X = launch(PlanBuilder.directAllgather(8), MI300X, Policy.NAP, 1);

    @Test
    void underModuloDispatchEachThreadblockSitsAtASlotOfItsCusDie() {
        Topology topo = MI300X;
        Placement p = NAP_ON_MI300X.placement();
        Realised r = NAP_ON_MI300X.realised();
        assertEquals(Dispatch.Rule.MODULO, topo.dispatch().rule());
        List<Integer> dies = topo.dispatch().dies();
        for (Realised.RankLaunch rank : r.ranks()) {
            for (int t = 0; t < rank.slotOfTb().length; t++) {
                int cu = p.cuOfTb()[rank.rank() * 7 + t];
                assertEquals(topo.cus().get(cu).die(), (int) dies.get(rank.slotOfTb()[t] % dies.size()),
                        "rank " + rank.rank() + " tb " + t);
            }
        }
    }

    @Test
    void aThreadblocksMaskSelectsItsCuAndStreamsLeaveNoDieEmpty() {
        Topology topo = MI300X;
        Realised r = NAP_ON_MI300X.realised();
        Realised.RankLaunch r0 = r.ranks().get(0);
        int bit = topo.maskBit(NAP_ON_MI300X.placement().cuOfTb()[0]);
        int[] expected = new int[r.maskWords()];
        expected[bit / 32] = 1 << (bit % 32);
        assertArrayEquals(expected, r0.tbMasks().get(0));
        for (Realised.StreamMask s : r0.streams()) {
            boolean[] die = new boolean[topo.dies().size()];
            for (var cu : topo.cus()) if ((s.mask()[cu.maskBit() / 32] & (1 << (cu.maskBit() % 32))) != 0) die[cu.die()] = true;
            for (int d : topo.dispatch().dies()) assertTrue(die[d], "domain " + s.domain() + " leaves die " + d + " empty");
        }
    }

    @Test
    void underFreeDispatchTheGridIsThePlansOrder() {
        Realised r = launch(PlanBuilder.directAllgather(3), Topologies.bundled("h200"), Policy.UA, 1).realised();
        assertArrayEquals(new int[] {0, 1}, r.ranks().get(0).grid());
    }

    @Test
    void thePassesProductIsConsistent() {
        Compilation c = Fixtures.run(Fixtures.compilation(PlanBuilder.directAllgather(2), Topologies.nuna4die(),
                PlacementOptions.defaults()), 5);
        Diagnostics d = new Diagnostics();
        c.get(Realised.KEY).verify(c, d);
        assertTrue(d.all().isEmpty(), d.all()::toString);
        assertEquals(2, c.get(Realised.KEY).ranks().size());
    }
}
