package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.passes.cost.CriticalStep;
import dev.nunac.passes.cost.LatencyStats;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.cost.TbTiming;
import dev.nunac.passes.cost.Utilisation;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The simulator's results as text for people and as CSV for plots. */
public final class SimulationText {
    /** Histogram bin width (ns) of the text and CSV forms. */
    public static final int BIN_NS = 10;

    private SimulationText() {}

    public static String summary(CompileResult r, SimResult s, int topServers) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "nunac simulation%n"));
        sb.append(String.format(Locale.ROOT, "plan        %s (%s, %d ranks, %d threadblocks)%n", r.plan().name(),
                r.plan().collective().id(), r.plan().ranks(), r.plan().threadblockCount()));
        sb.append(String.format(Locale.ROOT, "topology    %s%n", r.topology().name()));
        sb.append(String.format(Locale.ROOT, "placement   %s, NAR %s (%s)%n", r.search().chosen().candidate().id(), r.search().granularityLabel(),
                r.search().reason()));
        sb.append(String.format(Locale.ROOT, "size        %d bytes, %d bytes per chunk%n%n", r.options().sizeBytes(), r.placement().chunkBytes()));
        sb.append(String.format(Locale.ROOT, "completion  %.1f ns%n", s.completionNs()));
        LatencyStats l = s.storeLatency();
        sb.append(String.format(Locale.ROOT, "one-way off-chip store latency over %.0f flits: mean %.1f ns, p50 %.0f, p99 %.0f, max %.1f, min %.1f%n",
                l.flits(), l.meanNs(), l.p50Ns(), l.p99Ns(), l.maxNs(), l.minNs()));
        sb.append(String.format(Locale.ROOT, "%nstore latency histogram (%d ns bins, flits)%n", BIN_NS));
        sb.append(s.histogram().text(BIN_NS, 50));
        sb.append(String.format(Locale.ROOT, "%nbusiest servers (busy time / completion)%n"));
        for (String kind : List.of("port-out", "port-in", "link", "stack", "cu", "router-in", "router-out", "nic-out", "nic-in")) {
            Utilisation u = s.busiest(kind);
            if (u != null) sb.append(String.format(Locale.ROOT, "  %-10s %-34s %6.1f%%%n", kind, u.server(), 100 * u.fraction()));
        }
        int n = 0;
        sb.append(String.format(Locale.ROOT, "%ntop %d servers%n", topServers));
        for (Utilisation u : s.utilisation()) {
            if (n++ == topServers) break;
            sb.append(String.format(Locale.ROOT, "  %-34s %10.1f ns %6.1f%%%n", u.server(), u.busyNs(), 100 * u.fraction()));
        }
        sb.append(String.format(Locale.ROOT, "%ncritical path (%d steps)%n", s.criticalPath().size()));
        for (CriticalStep c : s.criticalPath()) {
            sb.append(String.format(Locale.ROOT, "  r%d tb%d step %d %-5s %10.1f .. %10.1f ns  after %s%n", c.tb().rank(), c.tb().index(), c.step(),
                    c.op(), c.startNs(), c.endNs(), c.cause().text()));
        }
        sb.append(String.format(Locale.ROOT, "%nslowest threadblocks%n"));
        List<TbTiming> slow = s.threadblocks().stream().sorted(Comparator.comparingDouble(TbTiming::finishNs).reversed()
                .thenComparing(TbTiming::tb)).limit(5).toList();
        for (TbTiming t : slow) {
            sb.append(String.format(Locale.ROOT, "  r%d tb%d on CU %d: finished %.1f ns, busy %.1f ns, waiting %.1f ns%n", t.tb().rank(), t.tb().index(),
                    t.cu(), t.finishNs(), t.busyNs(), t.waitNs()));
        }
        return sb.toString();
    }

    public static String utilisationCsv(SimResult s) {
        StringBuilder sb = new StringBuilder("server,kind,busy_ns,utilisation\n");
        for (Utilisation u : s.utilisation()) {
            sb.append(String.format(Locale.ROOT, "%s,%s,%.3f,%.6f%n", u.server(), u.kind(), u.busyNs(), u.fraction()));
        }
        return sb.toString();
    }

    public static String threadblocksCsv(SimResult s) {
        StringBuilder sb = new StringBuilder("rank,tb,cu,finish_ns,busy_ns,wait_ns\n");
        for (TbTiming t : s.threadblocks()) {
            sb.append(String.format(Locale.ROOT, "%d,%d,%d,%.3f,%.3f,%.3f%n", t.tb().rank(), t.tb().index(), t.cu(), t.finishNs(), t.busyNs(), t.waitNs()));
        }
        return sb.toString();
    }
}
