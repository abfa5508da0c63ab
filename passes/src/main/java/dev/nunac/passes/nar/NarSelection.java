package dev.nunac.passes.nar;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Pass;
import dev.nunac.pass.Stage;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.place.PhysicalPlacement;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses the NAR granularity (paper §4.1.2). Policies without NAR hash over all ports
 * (granularity 1); {@code --nar N} forces a supported granularity, {@code --nar off} hashing.
 * Otherwise ({@code --nar auto}, the default) it does what the paper suggests: "exhaustively try
 * all available NAR granularities" — it places the plan at every granularity the topology
 * supports, baseline hashing included, simulates each placement with the cost model, and keeps
 * the fastest; a tie goes to the coarser granularity, which leaves more ports per domain.
 */
public final class NarSelection implements Pass {
    /** Relative difference below which two simulated times count as a tie. */
    static final double TIE = 1e-6;

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
        c.put(NarChoice.KEY, select(topo, opt, c.plan(), c.get(Accesses.KEY), c.get(LogicalGroups.KEY)));
    }

    /** The granularity for placing {@code plan} under {@code opt}. */
    public static NarChoice select(Topology topo, PlacementOptions opt, Plan plan, Accesses acc, LogicalGroups groups) {
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
        return auto(topo, opt, plan, acc, groups, ks);
    }

    /** Places and simulates every supported granularity; the fastest wins, ties to the coarser. */
    public static NarChoice auto(Topology topo, PlacementOptions opt, Plan plan, Accesses acc, LogicalGroups groups, int[] ks) {
        List<NarChoice.Candidate> cands = new ArrayList<>();
        int best = -1;
        double bestNs = Double.POSITIVE_INFINITY;
        for (int k : ks) {
            NarChoice trial = new NarChoice(k, false, "trial", List.of());
            Placement p = PhysicalPlacement.place(plan, acc, groups, trial, topo, opt);
            double ns = Simulator.simulate(plan, acc, p, topo).completionNs();
            cands.add(new NarChoice.Candidate(k, ns));
            if (best < 0 || ns < bestNs * (1 - TIE)) {
                best = k;
                bestNs = ns;
            }
        }
        String why = String.format(Locale.ROOT, "auto: fastest simulated granularity (%.1f ns) of %d tried", bestNs, ks.length);
        return new NarChoice(best, false, why, cands);
    }
}
