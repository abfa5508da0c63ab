package dev.nunac.passes.nar;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Key;
import dev.nunac.pass.Stage;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.AnalyticEstimate;
import dev.nunac.passes.cost.SimResult;
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
import java.util.stream.IntStream;
import java.util.Locale;

/**
 * Chooses the NAR granularity (paper §4.1.2). Policies without NAR hash over all ports
 * (granularity 1); {@code --nar N} forces a supported granularity, {@code --nar off} hashing.
 * Otherwise ({@code --nar auto}, the default) it does what the paper suggests: "exhaustively try
 * all available NAR granularities" — it places the plan at every granularity the topology
 * supports, baseline hashing included, simulates each placement with the cost model, and keeps
 * the fastest; a tie goes to the coarser granularity, which leaves more ports per domain. Plans of
 * more than {@value #EXHAUSTIVE_STEPS} steps are ranked with {@link AnalyticEstimate} first, and
 * only hashing and the best {@value #SIMULATED_WHEN_LARGE} are simulated.
 */
public final class NarSelection extends BasePass {
    /** Relative difference below which two simulated times count as a tie. */
    static final double TIE = 1e-6;

    public NarSelection() {
        super("nar-selection", Stage.NAR_SELECTED, Stage.LOGICALLY_ALLOCATED);
    }

    /** The placement NAR auto chose with, which the placement pass takes instead of placing again. */
    public static final Key<Placement> CHOSEN_PLACEMENT = Key.of("nar-auto-placement", Placement.class);
    /** The cost model's run of that placement, which the outputs summarise. */
    public static final Key<SimResult> CHOSEN_SIMULATION = Key.of("nar-auto-simulation", SimResult.class);

    /**
     * A choice and, when NAR auto made it, the winner's placement and simulation (null
     * otherwise).
     */
    public record Selection(NarChoice choice, Placement placement, SimResult simulation) {
        static Selection of(NarChoice choice) {
            return new Selection(choice, null, null);
        }
    }

    @Override
    public void run(Compilation c) {
        Selection s = choose(c.get(TopologyInput.KEY), c.get(PlacementOptions.KEY), c.plan(), c.get(Accesses.KEY),
                c.get(LogicalGroups.KEY));
        c.put(NarChoice.KEY, s.choice());
        if (s.placement() != null) c.put(CHOSEN_PLACEMENT, s.placement());
        if (s.simulation() != null) c.put(CHOSEN_SIMULATION, s.simulation());
    }

    /** The granularity for placing {@code plan} under {@code opt}. */
    public static NarChoice select(Topology topo, PlacementOptions opt, Plan plan, Accesses acc, LogicalGroups groups) {
        return choose(topo, opt, plan, acc, groups).choice();
    }

    static Selection choose(Topology topo, PlacementOptions opt, Plan plan, Accesses acc, LogicalGroups groups) {
        int[] ks = topo.narGranularities();
        List<NarChoice.Candidate> cands = new ArrayList<>();
        for (int k : ks) cands.add(new NarChoice.Candidate(k, Double.NaN));
        if (topo.scaleUp().model() == ScaleUpModel.DIRECT) {
            return Selection.of(new NarChoice(1, true, "direct topology: each peer is reached through its own port", List.of()));
        }
        if (!opt.policy().nar || opt.nar() == PlacementOptions.NAR_OFF) {
            return Selection.of(new NarChoice(1, false, opt.policy().nar ? "--nar off" : "policy " + opt.policy().id()
                    + " hashes over all ports", cands));
        }
        if (opt.nar() > 0) {
            if (Arrays.stream(ks).noneMatch(k -> k == opt.nar())) {
                throw new CompileException(ErrorKind.USAGE, dev.nunac.diag.SourcePos.NONE, "--nar " + opt.nar() + ": topology " + topo.name()
                        + " supports granularities " + Arrays.toString(ks).replaceAll("[\\[\\]]", ""));
            }
            return Selection.of(new NarChoice(opt.nar(), false, "--nar " + opt.nar(), cands));
        }
        return auto(topo, opt, plan, acc, groups, ks);
    }

    /**
     * Places and simulates every supported granularity; the fastest wins, ties to the coarser.
     * The candidates are independent and pure, so they are placed and simulated side by side;
     * the choice is made afterwards, in granularity order, so it does not depend on timing.
     */
    public static Selection auto(Topology topo, PlacementOptions opt, Plan plan, Accesses acc, LogicalGroups groups, int[] given) {
        int[] ks = given.clone();
        java.util.Arrays.sort(ks); // coarse first, so a tie keeps the coarser granularity
        Placement[] placed = new Placement[ks.length];
        IntStream.range(0, ks.length).parallel().forEach(i -> placed[i] =
                PhysicalPlacement.place(plan, acc, groups, new NarChoice(ks[i], false, "trial", List.of()), topo, opt));
        // Large plans: rank every granularity analytically and simulate only the best few.
        boolean large = plan.stepCount() > EXHAUSTIVE_STEPS;
        boolean[] simulate = new boolean[ks.length];
        if (large) {
            Integer[] order = new Integer[ks.length];
            double[] est = new double[ks.length];
            for (int i = 0; i < ks.length; i++) {
                order[i] = i;
                est[i] = AnalyticEstimate.ns(acc, placed[i], topo);
            }
            java.util.Arrays.sort(order, java.util.Comparator.comparingDouble(i -> est[i]));
            for (int j = 0; j < Math.min(SIMULATED_WHEN_LARGE, ks.length); j++) simulate[order[j]] = true;
            // Hashing always runs too: the estimate cannot see the NoC congestion that makes it win.
            for (int i = 0; i < ks.length; i++) if (ks[i] == 1) simulate[i] = true;
        } else {
            java.util.Arrays.fill(simulate, true);
        }
        SimResult[] runs = new SimResult[ks.length];
        IntStream.range(0, ks.length).parallel().forEach(i -> runs[i] = simulate[i] ? Simulator.simulate(plan, acc, placed[i], topo) : null);
        List<NarChoice.Candidate> cands = new ArrayList<>();
        int best = -1, winner = -1;
        double bestNs = Double.POSITIVE_INFINITY;
        for (int i = 0; i < ks.length; i++) {
            double ns = runs[i] == null ? Double.NaN : runs[i].completionNs();
            cands.add(new NarChoice.Candidate(ks[i], ns));
            if (simulate[i] && (best < 0 || ns < bestNs * (1 - TIE))) {
                best = ks[i];
                bestNs = ns;
                winner = i;
            }
        }
        String why = large
                ? String.format(Locale.ROOT, "auto: fastest simulated granularity (%.1f ns) of hashing and the %d an analytic estimate"
                        + " ranked best (plan of %d steps)", bestNs, SIMULATED_WHEN_LARGE, plan.stepCount())
                : String.format(Locale.ROOT, "auto: fastest simulated granularity (%.1f ns) of %d tried", bestNs, ks.length);
        return new Selection(new NarChoice(best, false, why, cands), placed[winner], runs[winner]);
    }

    /** Plans up to this many steps simulate every granularity; larger ones only the analytic best. */
    static final int EXHAUSTIVE_STEPS = 20_000;
    static final int SIMULATED_WHEN_LARGE = 2;
}
