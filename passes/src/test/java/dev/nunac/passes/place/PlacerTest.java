package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Topology;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Algorithm 1 and the baselines on the four-die test chip. */
class PlacerTest {
    static final Topology TOPO = Topologies.nuna4die();

    static Placement place(Plan plan, Policy policy, int k) {
        PlacementInput in = Fixtures.input(plan, TOPO, 1 << 20);
        return Placer.place(in, Fixtures.groups(in), policy, k);
    }

    @Test
    void aNapThreadblockRunsOnACuOfItsNarDomain() {
        int k = 4;
        Placement p = place(PlanBuilder.directAllgather(4), Policy.NAP_NAR, k);
        for (int t = 0; t < p.cuOfTb().length; t++) {
            assertTrue(p.domainOfTb()[t] >= 0 && p.domainOfTb()[t] < k, "tb#" + t + " has a domain");
            assertEquals(p.domainOfTb()[t], TOPO.nearestDomain(k, p.cuOfTb()[t]), "tb#" + t + " on CU " + p.cuOfTb()[t]);
        }
    }

    @Test
    void spreadGivesSmallTransfersTheirOwnCusWhereTheWindowWouldPackThem() {
        // 8 ranks at 100 kB: 49 requests a threadblock, so seven fit one CU's window
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(8), TOPO, 100_000);
        LogicalGroups groups = dev.nunac.passes.alloc.LogicalAllocation.allocate(in.accesses(), false);
        Placement packed = Placer.place(in, groups, Policy.BALANCED, 4, null, false);
        Placement spread = Placer.place(in, groups, Policy.BALANCED, 4, null, true);
        int tbs = in.accesses().threadblocks().size();
        java.util.Set<Long> packedCus = new java.util.HashSet<>(), spreadCus = new java.util.HashSet<>();
        for (int t = 0; t < tbs; t++) {
            long rank = in.accesses().threadblocks().get(t).rank();
            packedCus.add(rank << 32 | packed.cuOfTb()[t]);
            spreadCus.add(rank << 32 | spread.cuOfTb()[t]);
            assertEquals(packed.domainOfTb()[t], spread.domainOfTb()[t], "the domains are the policy's either way");
        }
        assertTrue(packedCus.size() < tbs, "the window alone shares CUs: " + packedCus.size());
        assertEquals(tbs, spreadCus.size(), "spread, every threadblock of a rank has a CU of its own");
        // each spread threadblock still sits as near its ports as the nearest free CU allows: within the 4 CUs of a router
        for (int t = 0; t < tbs; t++) {
            int[] ports = TOPO.narDomains(4).get(spread.domainOfTb()[t]).ports();
            assertTrue(TOPO.hopsToPorts(spread.cuOfTb()[t], ports) <= TOPO.hopsToPorts(packed.cuOfTb()[t], ports) + 2, "tb#" + t);
        }
        // the paper's NAP ignores it
        assertTrue(Arrays.equals(Placer.place(in, Fixtures.groups(in), Policy.NAP_NAR, 4, null, true).cuOfTb(),
                Placer.place(in, Fixtures.groups(in), Policy.NAP_NAR, 4, null, false).cuOfTb()));
    }

    @Test
    void uaHashesTrafficAndPlacesEveryThreadblockAndPage() {
        Plan plan = PlanBuilder.directAllgather(4);
        Placement p = place(plan, Policy.UA, 1);
        assertEquals(plan.threadblockCount(), p.cuOfTb().length);
        assertTrue(Arrays.stream(p.domainOfTb()).allMatch(d -> d == -1), "no NAR domain under UA");
        Compilation c = Fixtures.compilation(plan, TOPO, PlacementOptions.defaults());
        Fixtures.run(c, 2);
        Diagnostics d = new Diagnostics();
        p.verify(c, d);
        assertTrue(d.all().isEmpty(), d.all()::toString);
    }

    @Test
    void napMemoryPutsAThreadblocksLocalChunkOnTheStackNearestItsCu() {
        Plan plan = PlanBuilder.directAllgather(2);
        PlacementInput in = Fixtures.input(plan, TOPO, 1 << 20);
        Placement p = Placer.place(in, Fixtures.groups(in), Policy.NAP, 1);
        TbAccess tb = in.accesses().threadblocks().get(0);
        int own = in.accesses().space().id(0, "output", 0); // rank 0's own chunk (its input, in place): only tb0 reads it
        assertTrue(Arrays.binarySearch(tb.local(), own) >= 0);
        PageMap out = p.pages().stream().filter(m -> m.rank() == 0 && m.buffer().equals("output")).findFirst().orElseThrow();
        int stack = out.stack()[out.pageOf(0, p.chunkBytes(), p.pageBytes())];
        int cuRouter = TOPO.cus().get(p.cuOfTb()[0]).router();
        assertEquals(TOPO.stacksByDistanceFromRouter(cuRouter)[0], stack, "the nearest stack to the CU of the threadblock");
    }

    @Test
    void placementIsAPureFunctionOfItsInput() {
        Plan plan = PlanBuilder.directAllgather(4);
        Placement a = place(plan, Policy.BALANCED, 4), b = place(plan, Policy.BALANCED, 4);
        assertTrue(Arrays.equals(a.cuOfTb(), b.cuOfTb()) && Arrays.equals(a.domainOfTb(), b.domainOfTb()));
        assertEquals(a.dump(), b.dump());
    }
}
