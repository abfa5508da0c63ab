package dev.nunac.passes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.passes.Fixtures;
import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Searches that share a memo of simulated times choose and estimate exactly as searches without one. */
class SimulationMemoTest {
    /** The quick settings of the search tests, counting the simulations they run. */
    static final class Counting implements CostModel {
        final CostModel model = PlacementSearchTest.QUICK.simulator();
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public String name() {
            return model.name();
        }

        @Override
        public Estimate estimate(PlacementInput in, Placement p) {
            runs.incrementAndGet();
            return model.estimate(in, p);
        }

        @Override
        public long cost(PlacementInput in, Placement p) {
            return model.cost(in, p);
        }
    }

    static List<SearchResult> searches(PlacementInput in, PlacementSearch.Settings settings) {
        List<SearchResult> out = new java.util.ArrayList<>();
        for (long size : new long[] {64 << 10, 1 << 20}) {
            out.add(PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, size), settings));
            for (Policy p : Policy.values()) {
                out.add(PlacementSearch.search(in, Fixtures.groups(in), new PlacementOptions(EnumSet.of(p), PlacementOptions.NAR_AUTO, size),
                        settings));
            }
        }
        return out;
    }

    @Test
    void sharedTimingsGiveTheSameChoicesAndTimesWithFewerSimulations() {
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        Counting fresh = new Counting(), shared = new Counting();
        List<SearchResult> a = searches(in, PlacementSearchTest.QUICK.withSimulator(fresh));
        List<SearchResult> b = searches(in, PlacementSearchTest.QUICK.withSimulator(new SimulationMemo(shared)));
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).chosen().candidate(), b.get(i).chosen().candidate(), a.get(i).summary());
            assertEquals(a.get(i).summary(), b.get(i).summary());
            assertEquals(a.get(i).reason(), b.get(i).reason());
        }
        assertTrue(shared.runs.get() < fresh.runs.get(), shared.runs + " of " + fresh.runs);
        assertTrue(shared.runs.get() <= fresh.runs.get() * 2 / 3, "UA alone is timed once per size, not once per search: "
                + shared.runs + " of " + fresh.runs);
    }

    @Test
    void theSamePlacementAtAnotherSizeOrOfAnotherPlanIsEstimatedAgain() {
        Counting counting = new Counting();
        SimulationMemo memo = new SimulationMemo(counting);
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        Placement ua = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK).baseline().placement();
        Estimate first = memo.estimate(in, ua);
        assertEquals(first, memo.estimate(in, ua));
        assertEquals(1, counting.runs.get());
        memo.estimate(in.withSize(2 << 20), ua);
        assertEquals(2, counting.runs.get());
        PlacementInput other = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        memo.estimate(other, ua);
        memo.estimate(other, ua);
        assertEquals(4, counting.runs.get(), "another plan's estimates are not remembered");
        assertEquals(1, memo.size(), "only the last size's estimate is kept");
        memo.estimate(in, ua);
        assertEquals(5, counting.runs.get(), "the first size's was forgotten when another came");
    }

    @Test
    void keepingAllRemembersEveryPlanAndSizeButTellsPlansApartByIdentity() {
        Counting counting = new Counting();
        SimulationMemo memo = SimulationMemo.keepingAll(counting);
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        PlacementInput other = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        Placement ua = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK).baseline().placement();
        Estimate first = memo.estimate(in, ua);
        memo.estimate(in.withSize(2 << 20), ua);
        memo.estimate(other, ua);
        assertEquals(3, counting.runs.get(), "another size, and an equal plan compiled again, are estimated anew");
        assertEquals(first, memo.estimate(in, ua));
        memo.estimate(in.withSize(2 << 20), ua);
        memo.estimate(other, ua);
        assertEquals(3, counting.runs.get(), "each is remembered");
        assertEquals(3, memo.size());
    }

    @Test
    void repackingIsNotPartOfTheKeyForNoModelReadsIt() {
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        Placement ua = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK).baseline().placement();
        for (CostModel m : List.of(new dev.nunac.passes.cost.AnalyticModel(), PlacementSearchTest.QUICK.simulator())) {
            assertEquals(m.estimate(in, ua).ns(), m.estimate(in.withRepack(true), ua).ns(), m.name());
        }
        Counting counting = new Counting();
        SimulationMemo memo = new SimulationMemo(counting);
        Estimate a = memo.estimate(in, ua);
        assertEquals(a, memo.estimate(in.withRepack(true), ua));
        assertEquals(1, counting.runs.get());
    }

    @Test
    void aPlacementAskedForByTwoThreadsAtOnceIsEstimatedOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CostModel slow = new CostModel() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public Estimate estimate(PlacementInput in, Placement p) {
                runs.incrementAndGet();
                try {
                    Thread.sleep(200); // long enough for the other thread to ask meanwhile
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Estimate.of(42, -1);
            }
        };
        SimulationMemo memo = SimulationMemo.keepingAll(slow);
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        Placement ua = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK).baseline().placement();
        java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<Estimate>> asks = new java.util.ArrayList<>();
            for (int i = 0; i < 2; i++) {
                asks.add(pool.submit(() -> {
                    both.await();
                    return memo.estimate(in, ua);
                }));
            }
            for (var f : asks) assertEquals(42, f.get().ns());
        } finally {
            pool.shutdown();
        }
        assertEquals(1, runs.get(), "the second ask waits for the first's estimate");
    }

    @Test
    void placementsThatDifferAnywhereHaveDifferentFingerprints() {
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        SearchResult r = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK);
        Placement ua = r.baseline().placement();
        int[] cus = ua.cuOfTb().clone();
        cus[0] = cus[0] + 1;
        Placement moved = new Placement(ua.policy(), ua.granularity(), ua.direct(), ua.chunkBytes(), ua.pageBytes(), cus, ua.domainOfTb(),
                ua.groupOfTb(), ua.pages(), ua.stats());
        assertNotEquals(SimulationMemo.fingerprint(ua), SimulationMemo.fingerprint(moved));
        assertEquals(SimulationMemo.fingerprint(ua), SimulationMemo.fingerprint(new Placement(ua.policy(), ua.granularity(), ua.direct(),
                ua.chunkBytes(), ua.pageBytes(), ua.cuOfTb().clone(), ua.domainOfTb().clone(), ua.groupOfTb().clone(), ua.pages(), ua.stats())));
    }

    @Test
    void theSimulatorReadsNeitherThePolicyNorTheGroupsSoTheMemoMayIgnoreThem() {
        // The memo's key leaves both out: should the simulator ever read them, this fails first.
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), PlacementSearchTest.TOPO, 1 << 20);
        SearchResult r = PlacementSearch.search(in, Fixtures.groups(in), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1 << 20),
                PlacementSearchTest.QUICK);
        assertNotEquals(r.baseline().candidate(), r.chosen().candidate(), r.summary());
        for (Scored s : List.of(r.baseline(), r.chosen())) {
            Placement p = s.placement();
            int[] groups = new int[p.groupOfTb().length];
            Placement renamed = new Placement(p.policy() == Policy.UA ? Policy.BALANCED : Policy.UA, p.granularity(), p.direct(),
                    p.chunkBytes(), p.pageBytes(), p.cuOfTb(), p.domainOfTb(), groups, p.pages(), p.stats());
            assertEquals(SimulationMemo.fingerprint(p), SimulationMemo.fingerprint(renamed));
            CostModel sim = PlacementSearchTest.QUICK.simulator();
            assertEquals(sim.estimate(in, p).ns(), sim.estimate(in, renamed).ns(), s.candidate().id());
        }
    }
}
