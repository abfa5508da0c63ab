package dev.nunac.passes.search;

import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.Placer;
import java.util.ArrayList;
import java.util.List;

/**
 * A local search over a balanced placement's NAR domains, scored by a cost model: each round
 * takes the threadblock whose step the model finds delivers last, and tries every other domain
 * for it and for the threadblocks of its logical group that share its domain; the best move that
 * lowers the estimate is kept. Stops after a number of rounds or when no move helps. Domains
 * differ: those whose ports lie far from every HBM stack make their threadblocks' reads slow, and
 * balancing bytes alone cannot see that.
 */
final class Refinement {
    private Refinement() {}

    /** The refined candidate, or null when no move lowered the estimate. */
    static Scored refine(PlacementInput in, LogicalGroups groups, Scored base, CostModel model, int rounds) {
        int k = base.placement().granularity();
        int[] domains = base.placement().domainOfTb().clone();
        Estimate best = model.estimate(in, base.placement());
        Placement bestPlacement = base.placement();
        boolean improved = false;
        for (int round = 0; round < rounds; round++) {
            int last = best.lastTb();
            if (last < 0 || domains[last] < 0) break;
            List<Integer> unit = new ArrayList<>();
            int group = groups.groupOfTb()[last];
            for (int m : groups.groups().stream().filter(g -> g.id() == group).findFirst().orElseThrow().members()) {
                if (domains[m] == domains[last]) unit.add(m);
            }
            Estimate roundBest = best;
            Placement roundPlacement = null;
            int[] roundDomains = null;
            for (int d = 0; d < k; d++) {
                if (d == domains[last]) continue;
                int[] trial = domains.clone();
                for (int m : unit) trial[m] = d;
                Placement p = Placer.place(in, groups, base.candidate().policy(), k, trial, base.candidate().spread());
                Estimate e = model.estimate(in, p);
                if (e.ns() < roundBest.ns() * (1 - 1e-6)) {
                    roundBest = e;
                    roundPlacement = p;
                    roundDomains = trial;
                }
            }
            if (roundPlacement == null) break;
            best = roundBest;
            bestPlacement = roundPlacement;
            domains = roundDomains;
            improved = true;
        }
        if (!improved) return null;
        Candidate c = new Candidate(base.candidate().policy(), k, base.candidate().byAddress(), true, base.candidate().spread());
        return new Scored(c, bestPlacement, best.ns(), null);
    }
}
