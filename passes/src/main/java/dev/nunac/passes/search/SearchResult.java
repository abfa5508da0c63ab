package dev.nunac.passes.search;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import dev.nunac.passes.cost.IdealBound;
import java.util.List;
import java.util.Locale;

/**
 * Product of {@link PlacementSearch}: every candidate with its estimates, the one chosen, the
 * NUNA-unaware baseline (UA) it is measured against, which model decided ({@code simulated}:
 * the simulator timed both the chosen and the baseline; else the analytic estimate did), and the
 * plan's ideal bound. {@code chosen} and {@code baseline} keep their placements; the other
 * candidates only their estimates. {@code narrowed} says how the search narrowed its space for
 * a very large plan, empty when it did not; {@code openingNs}, when above 0, that the simulator ran
 * only the first that many nanoseconds of each timed candidate ({@code OpeningReferee}).
 */
public record SearchResult(Scored chosen, Scored baseline, List<Scored> candidates, boolean simulated,
                           IdealBound.Bound ideal, boolean searched, String reason, String narrowed, double openingNs) implements Product {
    public static final Key<SearchResult> KEY = Key.of("placement-search", SearchResult.class);

    /** Below this speedup over UA the search reports that nothing pays off. */
    public static final double WORTHWHILE = 1.02;

    /** With the opening simulation, candidates estimated within this factor of the fastest are taken as tied: the opening's resolution. */
    public static final double OPENING_MARGIN = 1.01;

    public SearchResult {
        candidates = List.copyOf(candidates);
    }

    /** The same search with {@code other} (one of its candidates, with its placement) as the choice. */
    public SearchResult choosing(Scored other) {
        return new SearchResult(other, baseline, candidates, simulated, ideal, searched, reason, narrowed, openingNs);
    }

    /** The deciding model's estimate of the chosen placement. */
    public double chosenNs() {
        return chosen.ns(simulated);
    }

    public double baselineNs() {
        return baseline.ns(simulated);
    }

    /** UA's estimated time over the chosen placement's: above 1 the choice is faster. */
    public double speedup() {
        return baselineNs() / chosenNs();
    }

    /** The ideal bound over the chosen placement's estimate: 1 is ideal. */
    public double fractionOfIdeal() {
        return ideal.ns() / chosenNs();
    }

    /** True when no candidate the search could choose beats UA by {@link #WORTHWHILE} or more. */
    public boolean marginal() {
        return speedup() < WORTHWHILE;
    }

    /** True when the chosen placement is estimated slower than UA (only when UA was not among the choices). */
    public boolean slowerThanBaseline() {
        return chosenNs() > baselineNs() * (1 + 1e-9);
    }

    public String modelName() {
        return !simulated ? "analytic" : opened() ? "opening simulation" : "simulation";
    }

    /** True when the simulator ran only an opening stretch of {@link #openingNs} and the estimates are scaled from it ({@code OpeningReferee}). */
    public boolean opened() {
        return openingNs > 0;
    }

    /** The chosen NAR granularity as reports print it. */
    public String granularityLabel() {
        var p = chosen.placement();
        if (p.direct()) return "direct (port per peer)";
        return p.granularity() == 1 ? "1 (hashed over all ports)" : String.valueOf(p.granularity());
    }

    /** One line: what was chosen and what it buys, in time. */
    public String summary() {
        return String.format(Locale.ROOT, "%s: %.3f us estimated (%s), %.2fx UA (%.3f us), %.0f %% of ideal (%.3f us)",
                chosen.candidate().id(), chosenNs() / 1000, modelName(), speedup(), baselineNs() / 1000, 100 * fractionOfIdeal(),
                ideal.ns() / 1000);
    }

    @Override
    public void verify(Compilation c, Diagnostics d) {
        if (chosen.placement() == null || baseline.placement() == null) d.error(c.plan().pos(), "the search kept no placement");
        if (!(chosenNs() > 0) || !(baselineNs() > 0)) d.error(c.plan().pos(), "the search estimated no time: " + summary());
        if (searched && baseline.candidate().policy() == dev.nunac.passes.place.Policy.UA && slowerThanBaseline()) {
            d.error(c.plan().pos(), "the search chose a placement estimated slower than UA: " + summary());
        }
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder("chosen " + summary() + "\n");
        sb.append("reason ").append(reason).append('\n');
        for (Scored s : candidates) {
            sb.append(String.format(Locale.ROOT, "  candidate %-24s analytic %12.1f ns", s.candidate().id(), s.analyticNs()));
            if (s.wasSimulated()) sb.append(String.format(Locale.ROOT, "  simulated %12.1f ns", s.simulated().ns()));
            sb.append('\n');
        }
        return sb.toString();
    }
}
