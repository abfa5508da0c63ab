package dev.nunac.reproduction;

import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.LatencyStats;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Figs. 9–11 at the best-performing number of threadblocks, the paper's method (§5.1): for each
 * policy and size, the fastest of 7, 112 and 1,008 threadblocks per GPU at 8 GPUs
 * ({@link PaperReproduction#TBS_PER_PEER} per peer), each speedup against UA at its own best
 * count. Fig. 12's second table does the same over sizes.
 */
final class BestThreadblocks {
    static final int GPUS = 8;
    /** Fig. 9's sizes at the best count: the latency-bound ones by default, 10 MB too with --full (all-reduce at 1,008 threadblocks is slow to simulate). */
    static final long[] FIG9_SIZES = {100_000L, 1_000_000L}, FIG9_SIZES_FULL = {100_000L, 1_000_000L, 10_000_000L};
    static final long[] FIG11_SIZES = {100_000L, 10_000_000L};

    /** The fastest time of a policy at a size, and the threadblocks per GPU that gave it. */
    record Best(double ns, int threadblocks) {
        String cell(double uaNs) {
            return String.format(Locale.ROOT, "%.2fx (%,d)", uaNs / ns, threadblocks);
        }
    }

    private final PaperReproduction p;

    BestThreadblocks(PaperReproduction p) {
        this.p = p;
    }

    List<Plan> plans(String example) {
        List<Plan> plans = new ArrayList<>();
        for (int tpp : PaperReproduction.TBS_PER_PEER) plans.add(p.plan(example, GPUS, tpp));
        return plans;
    }

    Best best(String example, Policy policy, long size) {
        double[] b = p.best(plans(example), policy, size);
        return new Best(b[0], (GPUS - 1) * PaperReproduction.TBS_PER_PEER[(int) b[1]]);
    }

    /** Every point the figures below simulate, timed across the cores first (the figures then read them back). */
    void warm(List<String> examples, List<Policy> policies, long[] sizes) {
        List<PaperReproduction.Point> points = new ArrayList<>();
        for (String ex : examples) {
            for (Plan plan : plans(ex)) {
                for (Policy policy : policies) for (long s : sizes) points.add(new PaperReproduction.Point(plan, policy, s, PlacementOptions.NAR_AUTO));
            }
        }
        p.warm(points);
    }

    /** Fig. 9 at 8 GPUs with each policy at its best threadblock count; the best NAP+NAR point goes to the claims table. */
    String fig9(long[] sizes) {
        List<Policy> policies = new ArrayList<>(List.of(Policy.UA));
        policies.addAll(PaperReproduction.FIG9);
        warm(PaperReproduction.FIG9_COLLECTIVES, policies, sizes);
        StringBuilder sb = new StringBuilder("| collective | GPUs | size | UA (us) | UA threadblocks | UA+NAR | NUMA+NAR | NAP+NAR |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        double bestNn = 0;
        String at = null;
        for (String ex : PaperReproduction.FIG9_COLLECTIVES) {
            for (long s : sizes) {
                PaperReproduction.progress.step(String.format(Locale.ROOT, "fig. 9 at the best threadblocks: %s, %s", ex, PaperReproduction.size(s)));
                Best ua = best(ex, Policy.UA, s);
                sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f | %,d |", ex, GPUS, PaperReproduction.size(s), ua.ns() / 1000, ua.threadblocks()));
                for (Policy policy : PaperReproduction.FIG9) {
                    Best b = best(ex, policy, s);
                    sb.append(' ').append(b.cell(ua.ns())).append(" |");
                    if (policy == Policy.NAP_NAR && ua.ns() / b.ns() > bestNn) {
                        bestNn = ua.ns() / b.ns();
                        at = String.format(Locale.ROOT, "%s, %s, %,d threadblocks", ex, PaperReproduction.size(s), b.threadblocks());
                    }
                }
                sb.append('\n');
            }
        }
        p.claims.put("nap+nar-best", String.format(Locale.ROOT, "up to %.2fx (%s)", bestNn, at));
        return sb.toString();
    }

    /** Fig. 10's latencies with UA and NAP+NAR each at its best threadblock count for the 1 MB all-gather. */
    String fig10() {
        warm(List.of("allgather-direct"), List.of(Policy.UA, Policy.NAP_NAR), new long[] {1_000_000L});
        StringBuilder sb = new StringBuilder("| configuration | threadblocks per GPU | time (us) | mean (ns) | p50 | p99 | max | paper mean | paper max |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        String[][] paper = {{"920", "1,320"}, {"780", "1,180"}};
        int i = 0;
        for (Policy policy : List.of(Policy.UA, Policy.NAP_NAR)) {
            Best b = best("allgather-direct", policy, 1_000_000L);
            Plan plan = p.plan("allgather-direct", GPUS, b.threadblocks() / (GPUS - 1));
            LatencyStats l = p.sim(plan, policy, 1_000_000L, PlacementOptions.NAR_AUTO).storeLatency();
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.0f | %.0f | %.0f | %.0f | %s | %s |%n", policy.id(), b.threadblocks(),
                    b.ns() / 1000, l.meanNs(), l.p50Ns(), l.p99Ns(), l.maxNs(), paper[i][0], paper[i][1]));
            i++;
        }
        return sb.toString();
    }

    /** Fig. 11 with every policy at its best threadblock count, against UA at its own. */
    String fig11() {
        List<Policy> all = List.of(Policy.values());
        warm(List.of("allgather-direct"), all, FIG11_SIZES);
        StringBuilder sb = new StringBuilder("| policy | 100 kB | 10 MB |\n|---|---|---|\n");
        Best ua1 = best("allgather-direct", Policy.UA, FIG11_SIZES[0]), ua2 = best("allgather-direct", Policy.UA, FIG11_SIZES[1]);
        for (Policy policy : all) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", policy.id(), best("allgather-direct", policy, FIG11_SIZES[0]).cell(ua1.ns()),
                    best("allgather-direct", policy, FIG11_SIZES[1]).cell(ua2.ns())));
        }
        return sb.toString();
    }
}
