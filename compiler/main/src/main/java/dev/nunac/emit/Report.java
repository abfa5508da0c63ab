package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.passes.place.PlacementStats;
import java.util.Locale;

/** report.txt: a human table of what the chosen policy bought against the UA baseline. */
public final class Report {
    private Report() {}

    public static String emit(CompileResult r, PlacementStats ua) {
        PlacementStats s = r.placement().stats();
        String p = r.placement().policy().id();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "nunac placement report%n"));
        sb.append(String.format(Locale.ROOT, "plan      %s (%s, %d ranks, %d threadblocks, %d steps)%n", r.plan().name(),
                r.plan().collective().id(), r.plan().ranks(), r.plan().threadblockCount(), r.plan().stepCount()));
        sb.append(String.format(Locale.ROOT, "topology  %s (%d CUs, %d HBM stacks, %d scale-up ports)%n", r.topology().name(),
                r.topology().cus().size(), r.topology().stacks().size(), r.topology().scaleUpPorts().size()));
        sb.append(String.format(Locale.ROOT, "policy    %s, NAR granularity %s (%s)%n", p, r.nar().label(), r.nar().reason()));
        sb.append(String.format(Locale.ROOT, "size      %d bytes, %d bytes per chunk, %d logical groups%n", r.options().sizeBytes(),
                r.placement().chunkBytes(), r.groups().groups().size()));
        if (r.simulated() != null) {
            var sim = r.simulated();
            var l = sim.storeLatency();
            sb.append(String.format(Locale.ROOT, "simulated %.1f ns to complete; one-way store latency mean %.0f, p99 %.0f, max %.0f ns%n",
                    sim.completionNs(), l.meanNs(), l.p99Ns(), l.maxNs()));
            if (!sim.utilisation().isEmpty()) {
                var u = sim.utilisation().get(0);
                sb.append(String.format(Locale.ROOT, "          busiest %s (%s), %.1f %% of the time%n", u.server(), u.kind(), 100 * u.fraction()));
            }
        }
        sb.append('\n');
        String fmt = "%-28s %12s %12s %10s%n";
        sb.append(String.format(Locale.ROOT, fmt, "", p, "ua", "change"));
        row(sb, fmt, "mean CU->port hops", s.meanCuPortHops(), ua.meanCuPortHops());
        row(sb, fmt, "max CU->port hops", s.maxCuPortHops(), ua.maxCuPortHops());
        row(sb, fmt, "mean stack->port hops", s.meanStackPortHops(), ua.meanStackPortHops());
        row(sb, fmt, "max stack->port hops", s.maxStackPortHops(), ua.maxStackPortHops());
        row(sb, fmt, "CU spills", s.cuSpills(), ua.cuSpills());
        row(sb, fmt, "CU overflows", s.cuOverflows(), ua.cuOverflows());
        row(sb, fmt, "stack spills", s.stackSpills(), ua.stackSpills());
        row(sb, fmt, "stack overflows", s.stackOverflows(), ua.stackOverflows());
        row(sb, fmt, "page conflicts", s.pageConflicts(), ua.pageConflicts());
        row(sb, fmt, "max CU budget use", s.maxCuLoad(), ua.maxCuLoad());
        row(sb, fmt, "max stack budget use", s.maxStackLoad(), ua.maxStackLoad());
        sb.append(String.format(Locale.ROOT, "%nHops are NoC router hops; CU->port is averaged over the ports each store may take"
                + "%n(its NAR domain, or all ports when hashed). Spills: placed beyond the nearest candidates"
                + "%nfor lack of budget; overflows: no budget left anywhere.%n"));
        return sb.toString();
    }

    private static void row(StringBuilder sb, String fmt, String name, double a, double b) {
        String change = b == 0 ? (a == 0 ? "=" : "+inf") : String.format(Locale.ROOT, "%+.1f%%", 100.0 * (a - b) / b);
        sb.append(String.format(Locale.ROOT, fmt, name, CanonicalJson.number(round2(a)), CanonicalJson.number(round2(b)), change));
    }

    private static double round2(double v) {
        return Math.round(v * 100.0) / 100.0;
    }
}
