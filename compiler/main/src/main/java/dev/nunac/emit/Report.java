package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.passes.place.PlacementStats;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.Scored;
import dev.nunac.passes.search.SearchResult;
import java.util.Locale;

/**
 * report.txt: what the placement buys, in time first — the estimated completion time, the
 * speedup over the NUNA-unaware baseline (UA) and how close it comes to the plan's ideal bound —
 * then every candidate the search estimated, then hop counts and budgets as the explanation.
 */
public final class Report {
    private Report() {}

    /** The one-line result the compile prints: time, speedup over UA, fraction of the ideal bound. */
    public static String headline(CompileResult r) {
        SearchResult s = r.search();
        return String.format(Locale.ROOT, "%s on %s: %s", r.plan().name(), r.topology().name(), s.summary());
    }

    /**
     * What the compile says when the choice does not pay off, or when the search narrowed its
     * space for a very large plan (a line each); null when neither.
     */
    public static String notice(CompileResult r) {
        String payoff = payoff(r), narrowed = r.search().narrowed();
        if (narrowed.isEmpty()) return payoff;
        String note = "note: " + narrowed;
        return payoff == null ? note : payoff + "\n" + note;
    }

    private static String payoff(CompileResult r) {
        SearchResult s = r.search();
        if (s.slowerThanBaseline()) {
            return String.format(Locale.ROOT, "warning: %s is estimated slower than UA (%.2fx); it is what --policy asked for",
                    s.chosen().candidate().id(), s.speedup());
        }
        // Under a bound on the launch grid (placed-xml) the search chose among the placements that fit it.
        String which = r.options().maxBlocks() > 0 ? "placement whose launch grid fits " + r.options().maxBlocks()
                + " blocks per rank" : "placement";
        if (s.marginal() && s.chosen().candidate().policy() != Policy.UA) {
            return String.format(Locale.ROOT, "note: no %s beats UA by %.0f %% or more here (the best, %s, is %.3fx UA);"
                    + " emitting it anyway", which, 100 * (SearchResult.WORTHWHILE - 1), s.chosen().candidate().id(), s.speedup());
        }
        if (s.marginal()) {
            return String.format(Locale.ROOT, "note: no %s beats UA by %.0f %% or more here; emitting UA's", which,
                    100 * (SearchResult.WORTHWHILE - 1));
        }
        return null;
    }

    public static String emit(CompileResult r) {
        SearchResult s = r.search();
        PlacementStats st = r.placement().stats(), ua = r.baseline().stats();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "nunac placement report%n"));
        sb.append(String.format(Locale.ROOT, "plan      %s (%s, %d ranks, %d threadblocks, %d steps)%n", r.plan().name(),
                r.plan().collective().id(), r.plan().ranks(), r.plan().threadblockCount(), r.plan().stepCount()));
        sb.append(String.format(Locale.ROOT, "topology  %s (%d CUs, %d HBM stacks, %d scale-up ports)%n", r.topology().name(),
                r.topology().cus().size(), r.topology().stacks().size(), r.topology().scaleUpPorts().size()));
        sb.append(String.format(Locale.ROOT, "size      %d bytes, %d bytes per chunk%n%n", r.options().sizeBytes(), r.placement().chunkBytes()));
        sb.append(String.format(Locale.ROOT, "estimate  %.3f us (%s) with %s%n", s.chosenNs() / 1000, s.modelName(), s.chosen().candidate().id()));
        sb.append(String.format(Locale.ROOT, "vs UA     %.2fx (UA %.3f us)%n", s.speedup(), s.baselineNs() / 1000));
        sb.append(String.format(Locale.ROOT, "ideal     %.0f %% of the ideal bound %.3f us, set by %s%n", 100 * s.fractionOfIdeal(),
                s.ideal().ns() / 1000, s.ideal().limit()));
        String note = notice(r);
        if (note != null) sb.append(note).append('\n');
        sb.append(String.format(Locale.ROOT, "%npolicy    %s%n", policyLine(r)));
        if (r.tuning() != null) sb.append(String.format(Locale.ROOT, "tuning    %s%n", r.tuning()));
        sb.append(String.format(Locale.ROOT, "search    %s%n", s.reason()));
        if (r.simulated() != null) {
            var sim = r.simulated();
            var l = sim.storeLatency();
            sb.append(String.format(Locale.ROOT, "simulated one-way store latency mean %.0f, p99 %.0f, max %.0f ns%n", l.meanNs(), l.p99Ns(), l.maxNs()));
            if (!sim.utilisation().isEmpty()) {
                var u = sim.utilisation().get(0);
                sb.append(String.format(Locale.ROOT, "          busiest %s (%s), %.1f %% of the time%n", u.server(), u.kind(), 100 * u.fraction()));
            }
        }
        sb.append(String.format(Locale.ROOT, "%n%-36s %14s %15s %8s%n", "candidate", "analytic (us)", "simulated (us)", "vs UA"));
        for (Scored c : s.candidates()) {
            double ns = c.ns(s.simulated());
            String mark = c.candidate().equals(s.chosen().candidate()) ? " *" : "";
            sb.append(String.format(Locale.ROOT, "%-36s %14.3f %15s %8s%s%n", c.candidate().id(), c.analyticNs() / 1000,
                    c.wasSimulated() ? String.format(Locale.ROOT, "%.3f", c.simulated().ns() / 1000) : "-",
                    Double.isNaN(ns) ? "-" : String.format(Locale.ROOT, "%.2fx", s.baselineNs() / ns), mark));
        }
        sb.append(String.format(Locale.ROOT, "(* chosen; vs UA by the %s estimate; %s)%n", s.modelName(),
                s.opened() ? "simulated: UA's analytic time scaled by the data each had landed in the opening stretch against UA's;"
                        + " candidates without one were not opened" : s.simulated() ? "candidates without a simulated time were not timed"
                        : "the analytic estimate decided"));
        sb.append('\n');
        String fmt = "%-28s %14s %12s %10s%n";
        sb.append(String.format(Locale.ROOT, "why: %s against ua%n", s.chosen().candidate().id()));
        sb.append(String.format(Locale.ROOT, fmt, "", "chosen", "ua", "change"));
        row(sb, fmt, "mean CU->port hops", st.meanCuPortHops(), ua.meanCuPortHops());
        row(sb, fmt, "max CU->port hops", st.maxCuPortHops(), ua.maxCuPortHops());
        row(sb, fmt, "mean stack->port hops", st.meanStackPortHops(), ua.meanStackPortHops());
        row(sb, fmt, "max stack->port hops", st.maxStackPortHops(), ua.maxStackPortHops());
        row(sb, fmt, "CU spills", st.cuSpills(), ua.cuSpills());
        row(sb, fmt, "CU overflows", st.cuOverflows(), ua.cuOverflows());
        row(sb, fmt, "stack spills", st.stackSpills(), ua.stackSpills());
        row(sb, fmt, "stack overflows", st.stackOverflows(), ua.stackOverflows());
        row(sb, fmt, "page conflicts", st.pageConflicts(), ua.pageConflicts());
        row(sb, fmt, "max CU budget use", st.maxCuLoad(), ua.maxCuLoad());
        row(sb, fmt, "max stack budget use", st.maxStackLoad(), ua.maxStackLoad());
        sb.append(String.format(Locale.ROOT, "%nHops are NoC router hops; CU->port is averaged over the ports each store may take"
                + "%n(its NAR domain, or all ports when hashed). Spills: placed beyond the nearest candidates"
                + "%nfor lack of budget; overflows: no budget left anywhere. Page conflicts: pages two chunks"
                + "%nwanted on different stacks or domains, settled by what each would cost.%n"));
        return sb.toString();
    }

    /** What the policy is, and where it departs from the paper. */
    static String policyLine(CompileResult r) {
        var opts = r.options();
        Policy p = r.search().chosen().candidate().policy();
        String chosen = p.fromPaper() ? p.id() + " (the paper's " + (p.compute == Policy.Compute.NEAR_PORTS && p.napMemory
                ? "Algorithm 1" : "configuration") + ")"
                : p.id() + " (nunac's extension of NAP+NAR: groups balanced over the NAR domains, shared sources spread;"
                + " not in the paper)";
        if (!opts.searches()) return "--policy " + p.id() + ": " + chosen;
        return "auto, the search over " + opts.policies().size() + " policies; chose " + chosen;
    }

    private static void row(StringBuilder sb, String fmt, String name, double a, double b) {
        String change = b == 0 ? (a == 0 ? "=" : "+inf") : String.format(Locale.ROOT, "%+.1f%%", 100.0 * (a - b) / b);
        sb.append(String.format(Locale.ROOT, fmt, name, CanonicalJson.number(round2(a)), CanonicalJson.number(round2(b)), change));
    }

    private static double round2(double v) {
        return Math.round(v * 100.0) / 100.0;
    }
}
