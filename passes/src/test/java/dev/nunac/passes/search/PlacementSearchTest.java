package dev.nunac.passes.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.passes.Fixtures;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search's promises: UA is the baseline, and the choice is never estimated slower. */
class PlacementSearchTest {
    static final Topology TOPO = Topologies.nuna4die();

    static SearchResult search(Plan plan, PlacementOptions opt, PlacementSearch.Settings settings) {
        PlacementInput in = Fixtures.input(plan, TOPO, opt.sizeBytes());
        return PlacementSearch.search(in, Fixtures.groups(in), opt, settings);
    }

    /** Enough simulated events for UA and a few candidates of these small plans, to keep the tests quick. */
    static final PlacementSearch.Settings QUICK = PlacementSearch.Settings.defaults().withBudget(400_000);

    @Test
    void theChoiceIsNeverSlowerThanUa() {
        for (long size : new long[] {64 << 10, 1 << 20}) {
            SearchResult r = search(PlanBuilder.directAllgather(3), PlacementOptions.auto(PlacementOptions.NAR_AUTO, size), QUICK);
            assertEquals(Policy.UA, r.baseline().candidate().policy());
            assertTrue(r.simulated(), r.reason());
            assertTrue(r.chosenNs() <= r.baselineNs(), r.summary());
            assertFalse(r.slowerThanBaseline(), r.summary());
        }
    }

    @Test
    void withoutSimulationTheAnalyticEstimateDecidesAndStillKeepsUaAsTheFloor() {
        SearchResult r = search(PlanBuilder.directAllgather(4), PlacementOptions.defaults(), PlacementSearch.Settings.defaults().withBudget(0));
        assertFalse(r.simulated(), r.reason());
        assertTrue(r.chosenNs() <= r.baselineNs(), r.summary());
        assertTrue(r.candidates().stream().noneMatch(Scored::wasSimulated));
    }

    @Test
    void farFromTheIdealBoundWithStreamingTransfersTheAnalyticEstimateKeepsUa() {
        Plan plan = PlanBuilder.directAllgather(16);
        PlacementOptions opt = PlacementOptions.auto(PlacementOptions.NAR_AUTO, 256L << 20);
        SearchResult r = search(plan, opt, PlacementSearch.Settings.defaults().withBudget(0));
        double best = r.candidates().stream().mapToDouble(Scored::analyticNs).min().orElseThrow();
        PlacementInput in = Fixtures.input(plan, TOPO, opt.sizeBytes());
        assertTrue(best > PlacementSearch.TRUSTED_OF_IDEAL * r.ideal().ns(), best + " vs " + r.ideal());
        assertTrue(PlacementSearch.meanTransferBytes(in) >= PlacementSearch.STREAMING_BYTES);
        assertTrue(best * PlacementSearch.ANALYTIC_MARGIN < r.baseline().analyticNs(), "a candidate would replace UA without the rule");
        assertEquals(Policy.UA, r.chosen().candidate().policy(), r.reason());
        assertTrue(r.reason().contains("times the ideal bound, where it is not trusted to rank placements against UA"), r.reason());
    }

    @Test
    void whereTheAnalyticEstimateKeepsUaWithStreamingTransfersTheOpeningStretchReferees() {
        Plan plan = PlanBuilder.directAllgather(16);
        PlacementOptions opt = PlacementOptions.auto(PlacementOptions.NAR_AUTO, 256L << 20);
        PlacementSearch.Settings d = PlacementSearch.Settings.defaults();
        SearchResult r = search(plan, opt, d);
        assertTrue(r.opened() && r.simulated(), r.reason());
        assertEquals("opening simulation", r.modelName());
        assertTrue(r.reason().contains("so the simulator ran the first " + String.format(java.util.Locale.ROOT, "%.3f", r.openingNs() / 1000)
                + " us of UA and of "), r.reason());
        assertTrue(r.reason().contains("UA+NAR granularities") && r.reason().contains("the coarsest within 1 % of the fastest"), r.reason());
        // UA is estimated at its analytic time, every other opened candidate against it; UA+NAR are all opened, nothing else
        assertEquals(r.baseline().analyticNs(), r.baselineNs());
        assertTrue(r.candidates().stream().allMatch(c -> c.wasSimulated() == (c.candidate().policy() == Policy.UA_NAR
                || c.candidate().policy() == Policy.UA)), r::dump);
        long opened = r.candidates().stream().filter(Scored::wasSimulated).count();
        assertTrue(opened >= 2 && opened <= OpeningReferee.MAX_OPENED, opened + " opened");
        assertTrue(r.chosen().wasSimulated());
        double fastest = r.candidates().stream().filter(Scored::wasSimulated).mapToDouble(c -> c.simulated().ns()).min().orElseThrow();
        assertTrue(r.chosenNs() <= fastest * OpeningReferee.MARGIN && r.chosenNs() <= r.baselineNs(), r.summary());
        // the stretch is the longer of four first deliveries and a fiftieth of UA's time, well short of the run
        assertEquals(Math.max(OpeningReferee.MIN_LATENCIES * r.ideal().firstNs(), OpeningReferee.MIN_FRACTION * r.baseline().analyticNs()),
                r.openingNs(), 1e-6);
        assertEquals(r.dump(), search(plan, opt, d).dump(), "deterministic");
        // without a budget there is no opening, and the analytic rule keeps UA as before
        assertFalse(search(plan, opt, d.withBudget(0)).opened());
    }

    @Test
    void whereTheSimulatorKeptUaTheOpeningPicksAnUntimedUaNarGranularityToTimeWhole() {
        long size = 4L << 20;
        PlacementOptions opt = PlacementOptions.auto(PlacementOptions.NAR_AUTO, size);
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(2), TOPO, size).withSize(size);
        PlacementSearch.Settings d = PlacementSearch.Settings.defaults();
        SearchResult analytic = PlacementSearch.search(in, Fixtures.groups(in), opt, d.withBudget(0));
        PlacementSearch.Groups groups = new PlacementSearch.Groups(Fixtures.groups(in), null);
        List<Scored> all = new java.util.ArrayList<>(analytic.candidates());
        Scored placedUa = PlacementSearch.placed(in, groups, all.get(0));
        Scored ua = placedUa.withSimulation(d.simulator().estimate(in, placedUa.placement()));
        all.set(0, ua);
        PlacementSearch.SecondLook look = PlacementSearch.secondLook(in, groups, all, ua, opt, java.util.Set.of(), d, analytic.ideal().firstNs());
        assertTrue(look != null && look.opened() >= 1 && look.untilNs() > 0, String.valueOf(look));
        Scored lead = look.lead();
        assertTrue(lead != null && lead.candidate().policy() == Policy.UA_NAR, String.valueOf(lead));
        // timed whole, in place of its analytic-only entry, and (here) faster than UA, as the opening said
        assertEquals(d.simulator().estimate(in, lead.placement()).ns(), lead.simulated().ns());
        assertSame(lead, all.stream().filter(s -> s.candidate().equals(lead.candidate())).findFirst().orElseThrow());
        assertTrue(lead.simulated().ns() < ua.simulated().ns(), lead.simulated().ns() + " vs UA " + ua.simulated().ns());
        assertEquals(1, all.stream().filter(s -> s.wasSimulated() && s != all.get(0)).count(), "only the lead is timed");
        // nothing untimed left to open, or no budget for an opening: no second look
        assertEquals(null, PlacementSearch.secondLook(in, groups, all.stream().map(s -> s.candidate().policy() == Policy.UA_NAR && !s.wasSimulated()
                ? s.withSimulation(ua.simulated()) : s).toList(), ua, opt, java.util.Set.of(), d, analytic.ideal().firstNs()));
        assertEquals(null, PlacementSearch.secondLook(in, groups, new java.util.ArrayList<>(analytic.candidates()), ua, opt, java.util.Set.of(),
                d.withBudget(0), analytic.ideal().firstNs()));
    }

    @Test
    void theBestBalancedCandidatesHaveSpreadTwinsTimedBesideTheShortlist() {
        SearchResult r = search(PlanBuilder.directAllgather(8), PlacementOptions.auto(PlacementOptions.NAR_AUTO, 100_000), QUICK);
        List<Scored> twins = r.candidates().stream().filter(c -> c.candidate().spread() && !c.candidate().refined()).toList();
        assertEquals(PlacementSearch.SPREAD_TWINS, twins.size(), r::dump);
        for (Scored t : twins) {
            Candidate packed = new Candidate(t.candidate().policy(), t.candidate().granularity(), t.candidate().byAddress(), false);
            assertTrue(r.candidates().stream().anyMatch(c -> c.candidate().equals(packed)), "the twin of " + packed.id());
            assertTrue(t.candidate().id().endsWith(", spread") && t.candidate().policy() == Policy.BALANCED, t.candidate().id());
            assertTrue(t.wasSimulated(), "timed beside the shortlist: " + t.candidate().id());
        }
        assertTrue(r.reason().startsWith((r.candidates().size() - (r.candidates().stream().anyMatch(c -> c.candidate().refined()) ? 1 : 0))
                + " candidates"), r.reason());
    }

    @Test
    void whereTheAnalyticEstimateDecidesARefinedCandidateMustBeatTheRestByItsResolution() {
        PlacementOptions opt = PlacementOptions.defaults();
        Scored refined = new Scored(new Candidate(Policy.BALANCED, 4, 0, true), null, 100, null);
        Scored near = new Scored(new Candidate(Policy.NAP_NAR, 6), null, 100 * (1 + PlacementSearch.COARSE_TIE) - 0.01, null);
        Scored far = new Scored(new Candidate(Policy.NAP_NAR, 6), null, 100 * (1 + PlacementSearch.COARSE_TIE) + 0.01, null);
        Scored twin = new Scored(new Candidate(Policy.BALANCED, 4, 0, false, true), null, 99, null);
        assertSame(near, PlacementSearch.unrefinedWithin(refined, List.of(refined, twin, far, near), opt, java.util.Set.of()));
        assertSame(refined, PlacementSearch.unrefinedWithin(refined, List.of(refined, twin, far), opt, java.util.Set.of()));
        assertSame(refined, PlacementSearch.unrefinedWithin(refined, List.of(refined, twin), opt, java.util.Set.of()), "spread twins do not count");
    }

    @Test
    void meanTransferBytesIsTheMovedBytesPerDataMovingStep() {
        Plan plan = PlanBuilder.directAllgather(4); // every step moves one chunk
        PlacementInput in = Fixtures.input(plan, TOPO, 1 << 20);
        assertEquals(in.chunkBytes(), PlacementSearch.meanTransferBytes(in));
    }

    @Test
    void oneRequestedPolicyIsTheOneChosen() {
        SearchResult r = search(PlanBuilder.directAllgather(3), new PlacementOptions(Policy.NAP_NAR, 4, 1 << 20), QUICK);
        assertEquals(Policy.NAP_NAR, r.chosen().candidate().policy());
        assertEquals(4, r.chosen().placement().granularity());
        assertFalse(r.searched());
    }

    @Test
    void thePassHandsOnTheChosenPlacement() {
        Compilation c = Fixtures.run(Fixtures.compilation(PlanBuilder.directAllgather(2), TOPO, PlacementOptions.defaults()), 4);
        SearchResult r = c.get(SearchResult.KEY);
        assertSame(r.chosen().placement(), c.get(Placement.KEY));
        assertTrue(r.dump().startsWith("chosen "), r::dump);
    }

    @Test
    void aVeryLargePlanIsSearchedOverUaAndOneCandidateAndSaysSo() {
        Plan plan = PlanBuilder.directAllgather(4);
        PlacementSearch.Settings two = PlacementSearch.Settings.defaults().withTwoCandidateSteps(plan.stepCount() - 1);
        SearchResult r = search(plan, PlacementOptions.defaults(), two);
        assertEquals(List.of(new Candidate(Policy.UA, 1), new Candidate(Policy.NAP_NAR, 4)),
                r.candidates().stream().map(Scored::candidate).toList());
        assertTrue(r.chosenNs() <= r.baselineNs(), r.summary());
        assertTrue(r.narrowed().contains("estimated ua and nap+nar k=4 only (of the reduced space's"), r.narrowed());
        assertTrue(r.reason().startsWith(r.narrowed() + "; "), r.reason());
        // at the limit itself the search is as before
        SearchResult at = search(plan, PlacementOptions.defaults(), two.withTwoCandidateSteps(plan.stepCount()));
        assertEquals("", at.narrowed());
        assertEquals(search(plan, PlacementOptions.defaults(), PlacementSearch.Settings.defaults()).dump(), at.dump());
    }

    @Test
    void pastBothStepLimitsUaIsPlacedBesideTheOtherCandidateWithTheSameOutcome() {
        Plan plan = PlanBuilder.directAllgather(4);
        PlacementSearch.Settings d = PlacementSearch.Settings.defaults(), two = d.withTwoCandidateSteps(plan.stepCount() - 1);
        PlacementSearch.Settings both = new PlacementSearch.Settings(d.simulator(), d.simulationBudget(), d.maxSimulated(), d.refineRounds(),
                plan.stepCount() - 1, d.fullSpacePages(), d.keptPages(), plan.stepCount() - 1);
        SearchResult before = search(plan, PlacementOptions.defaults(), two), beside = search(plan, PlacementOptions.defaults(), both);
        assertEquals(before.candidates().stream().map(Scored::candidate).toList(), beside.candidates().stream().map(Scored::candidate).toList());
        assertEquals(before.candidates().stream().map(Scored::analyticNs).toList(), beside.candidates().stream().map(Scored::analyticNs).toList());
        assertEquals(before.chosen().candidate(), beside.chosen().candidate());
        assertEquals(before.ideal(), beside.ideal());
    }

    @Test
    void theTwoCandidateSpaceKeepsWhatWasAskedFor() {
        assertEquals(List.of(new Candidate(Policy.UA, 1), new Candidate(Policy.NAP_NAR, 2)),
                PlacementSearch.twoCandidateSpace(TOPO, PlacementOptions.auto(2, 1 << 20)));
        // one policy asked for: UA and that policy, at the largest granularity up to 4
        assertEquals(List.of(new Candidate(Policy.UA, 1), new Candidate(Policy.BALANCED, 4)),
                PlacementSearch.twoCandidateSpace(TOPO, new PlacementOptions(Policy.BALANCED, PlacementOptions.NAR_AUTO, 1 << 20)));
        // NAR off leaves nothing beside UA in the reduced space
        assertEquals(PlacementSearch.reducedSpace(TOPO, PlacementOptions.auto(PlacementOptions.NAR_OFF, 1 << 20)),
                PlacementSearch.twoCandidateSpace(TOPO, PlacementOptions.auto(PlacementOptions.NAR_OFF, 1 << 20)));
        assertEquals(List.of(new Candidate(Policy.UA, 1)),
                PlacementSearch.twoCandidateSpace(TOPO, new PlacementOptions(Policy.UA, PlacementOptions.NAR_AUTO, 1 << 20)));
    }

    @Test
    void theSpaceStartsWithUaAndHasNoTwins() {
        List<Candidate> space = PlacementSearch.space(TOPO, PlacementOptions.defaults());
        assertEquals(new Candidate(Policy.UA, 1), space.get(0));
        assertEquals(space.size(), space.stream().distinct().count());
    }
}
