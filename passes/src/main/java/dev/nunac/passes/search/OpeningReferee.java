package dev.nunac.passes.search;

import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.cost.Opening;
import dev.nunac.passes.place.PlacementInput;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The referee for plans too large to simulate twice within the compile's budget whose transfers
 * stream, where the analytic estimate keeps UA: UA and its UA+NAR variants ({@link
 * PlacementSearch#refereed}) are simulated at full fidelity over the same opening stretch of the
 * collective, as many as the budget allows, and each is estimated at UA's analytic time scaled by
 * how much less of the data it had landed by then than UA. Streaming transfers settle into a
 * steady rate within a few microseconds, and contention sets that rate — the contention the
 * analytic estimate counts only at the ends of a route — so the opening ranks these placements as
 * the whole run does (on the Fig. 9 grid: docs/placement.md).
 */
final class OpeningReferee {
    private OpeningReferee() {}

    /** The opening's resolution: candidates estimated within it of the fastest are taken as tied (docs/placement.md). */
    static final double MARGIN = SearchResult.OPENING_MARGIN;

    /** Candidates opened at most, UA among them (UA and its four UA+NAR granularities on nuna-4die). */
    static final int MAX_OPENED = 8;

    /**
     * The shortest stretch, in multiples of the earliest any data can land (the ideal bound's
     * first delivery): before that the opening shows the placements' latencies, not their rates
     * (at 32 GPUs and 100 MB, a stretch of two such latencies ranked UA+NAR k=4 1.32x UA, four of
     * them 1.10x, the whole run 1.04x; the order of the granularities held from four).
     */
    static final double MIN_LATENCIES = 4;

    /**
     * The shortest stretch as a fraction of UA's analytic time, too: a plan's transfers are cut
     * into at most {@code SimConfig.MAX_BATCHES} batches, so at the largest sizes the first
     * microseconds hold only a transfer's first batch or two.
     */
    static final double MIN_FRACTION = 0.02;

    /** Past this fraction of UA's analytic time the opening is hardly shorter than the run, and the referee does not run. */
    static final double MAX_STRETCH = 0.25;

    /** The referee's budget, in multiples of the compile's simulation budget: each opening costs a few percent of a whole run. */
    static final int BUDGET_TIMES = 2;

    /**
     * The choice among the opened candidates (in their order: UA, then UA+NAR from the coarsest
     * granularity): the first estimated within {@link #MARGIN} of the fastest. Within the
     * opening's resolution the coarser granularity is the safer: its domains have more ports, and
     * the finest are what an opening misjudges (the 8-GPU all-to-all at 1 GB: UA+NAR k=12 read
     * 1.03-1.04x UA over 2 to 10 % of the run, tied with k=2 to k=6, and is 0.997x UA whole).
     */
    static Scored choose(List<Scored> opened) {
        double fastest = Double.POSITIVE_INFINITY;
        for (Scored s : opened) fastest = Math.min(fastest, s.simulated().ns());
        for (Scored s : opened) if (s.simulated().ns() <= fastest * MARGIN) return s;
        throw new IllegalArgumentException("nothing opened");
    }

    /** The opened candidates with their scaled estimates, in the shortlist's order (UA first), and the stretch they were opened over. */
    record Verdict(List<Scored> opened, double untilNs) {}

    /**
     * Opens the first candidates of {@code shortlist} (placed, UA first) within {@link
     * #BUDGET_TIMES} {@code budget} simulated events, over the same stretch: {@link
     * #MIN_LATENCIES} times {@code firstNs} or {@link #MIN_FRACTION} of UA's time; null when not even UA and one other fit, the run is
     * too short for a stretch that long, or {@code model} does not simulate.
     */
    static Verdict open(PlacementInput in, List<Scored> shortlist, CostModel model, long budget, double firstNs) {
        return open(in, shortlist, model, budget, firstNs, shortlist.get(0).analyticNs());
    }

    /** The same, each estimated at {@code ua} (UA's time by some model) scaled by the data it had landed against UA's. */
    static Verdict open(PlacementInput in, List<Scored> shortlist, CostModel model, long budget, double firstNs, double ua) {
        double until = Math.max(MIN_LATENCIES * firstNs, MIN_FRACTION * ua);
        if (!(ua > 0) || until >= MAX_STRETCH * ua) return null; // the whole run is hardly longer than its opening
        // a stretch costs its fraction of a whole run's events: as many candidates as fit
        double spend = (double) budget * BUDGET_TIMES, total = 0;
        int m = 0;
        for (; m < Math.min(MAX_OPENED, shortlist.size()); m++) {
            double c = Math.max(1, model.cost(in, shortlist.get(m).placement())) * until / ua;
            if (total + c > spend) break;
            total += c;
        }
        if (m < 2) return null;
        List<Scored> list = shortlist.subList(0, m);
        Opening[] o = new Opening[m];
        IntStream.range(0, m).parallel().forEach(i -> o[i] = model.opening(in, list.get(i).placement(), until));
        if (o[0] == null || !(o[0].landedFlits() > 0)) return null;
        List<Scored> out = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            double ns = o[i].landedFlits() > 0 ? ua * o[0].landedFlits() / o[i].landedFlits() : Double.POSITIVE_INFINITY;
            out.add(list.get(i).withSimulation(new Estimate(ns, null, -1)));
        }
        return new Verdict(out, until);
    }
}
