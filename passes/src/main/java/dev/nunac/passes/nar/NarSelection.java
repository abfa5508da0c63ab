package dev.nunac.passes.nar;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Pass;
import dev.nunac.pass.Stage;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Chooses the NAR granularity (paper §4.1.2). Policies without NAR hash over all ports
 * (granularity 1); {@code --nar N} forces a supported granularity, {@code --nar off} hashing.
 * Otherwise the default rule: the finest supported granularity that still gives every domain
 * at least one logical group, and at least 2 where the topology supports it — few groups
 * spread over many domains would leave ports idle (paper §6.5).
 */
public final class NarSelection implements Pass {
    @Override
    public String name() {
        return "nar-selection";
    }

    @Override
    public Set<Stage> requires() {
        return Set.of(Stage.LOGICALLY_ALLOCATED);
    }

    @Override
    public Stage provides() {
        return Stage.NAR_SELECTED;
    }

    @Override
    public void run(Compilation c) {
        Topology topo = c.get(TopologyInput.KEY);
        PlacementOptions opt = c.get(PlacementOptions.KEY);
        c.put(NarChoice.KEY, select(topo, opt, c.get(LogicalGroups.KEY).groups().size()));
    }

    /** The granularity for a placement with {@code groups} logical groups. */
    public static NarChoice select(Topology topo, PlacementOptions opt, int groups) {
        int[] ks = topo.narGranularities();
        List<NarChoice.Candidate> cands = new ArrayList<>();
        for (int k : ks) cands.add(new NarChoice.Candidate(k, Double.NaN));
        if (topo.scaleUp().model() == ScaleUpModel.DIRECT) {
            return new NarChoice(1, true, "direct topology: each peer is reached through its own port", List.of());
        }
        if (!opt.policy().nar || opt.nar() == PlacementOptions.NAR_OFF) {
            return new NarChoice(1, false, opt.policy().nar ? "--nar off" : "policy " + opt.policy().id() + " hashes over all ports", cands);
        }
        if (opt.nar() > 0) {
            if (Arrays.stream(ks).noneMatch(k -> k == opt.nar())) {
                throw new CompileException(ErrorKind.USAGE, dev.nunac.diag.SourcePos.NONE, "--nar " + opt.nar() + ": topology " + topo.name()
                        + " supports granularities " + Arrays.toString(ks).replaceAll("[\\[\\]]", ""));
            }
            return new NarChoice(opt.nar(), false, "--nar " + opt.nar(), cands);
        }
        int finest = 0, coarsest = 0;
        for (int k : ks) {
            if (k <= 1) continue;
            if (coarsest == 0 || k < coarsest) coarsest = k;
            if (k <= groups && k > finest) finest = k;
        }
        int best = finest > 0 ? finest : coarsest > 0 ? coarsest : 1;
        return new NarChoice(best, false, "default rule: finest granularity with a logical group per domain ("
                + groups + " groups), at least 2", cands);
    }
}
