package dev.nunac.compare;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Simulated time of a plan under several policies and sizes, with the speedup over UA. */
public final class PolicyComparison {
    /** One policy at one size: the chosen NAR granularity and the simulated completion time. */
    public record Cell(Policy policy, long sizeBytes, int granularity, double timeNs, double speedupOverUa) {}

    private PolicyComparison() {}

    public static List<Cell> run(Plan plan, Topology topo, List<Policy> policies, List<Long> sizes, int nar) {
        List<Cell> out = new ArrayList<>();
        for (long size : sizes) {
            double ua = Double.NaN;
            List<Cell> row = new ArrayList<>();
            for (Policy p : policies) {
                Timed t = time(plan, topo, p, size, nar);
                row.add(new Cell(p, size, t.granularity(), t.timeNs(), 0));
            }
            for (Cell c : row) if (c.policy() == Policy.UA) ua = c.timeNs();
            if (Double.isNaN(ua)) ua = time(plan, topo, Policy.UA, size, nar).timeNs();
            for (Cell c : row) out.add(new Cell(c.policy(), size, c.granularity(), c.timeNs(), ua / c.timeNs()));
        }
        return List.copyOf(out);
    }

    public record Timed(int granularity, double timeNs) {}

    public static Timed time(Plan plan, Topology topo, Policy p, long size, int nar) {
        CompileResult r = Driver.compile(plan, topo, new PlacementOptions(p, nar, size), false, null, null);
        SimResult s = Driver.simulate(r, SimConfig.defaults());
        return new Timed(r.nar().granularity(), s.completionNs());
    }

    /** Rows: policies; columns: sizes; each cell the time in µs and the speedup over UA. */
    public static String table(List<Cell> cells, List<Policy> policies, List<Long> sizes, java.util.function.LongFunction<String> fmt) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-10s", "policy"));
        for (long s : sizes) sb.append(String.format(Locale.ROOT, " %24s", fmt.apply(s)));
        sb.append('\n');
        for (Policy p : policies) {
            sb.append(String.format(Locale.ROOT, "%-10s", p.id()));
            for (long s : sizes) {
                for (Cell c : cells) {
                    if (c.policy() == p && c.sizeBytes() == s) {
                        sb.append(String.format(Locale.ROOT, " %11.3f us %5.2fx k=%-2d", c.timeNs() / 1000, c.speedupOverUa(), c.granularity()));
                    }
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    public static String csv(List<Cell> cells) {
        StringBuilder sb = new StringBuilder("policy,size_bytes,nar_granularity,time_ns,speedup_over_ua\n");
        for (Cell c : cells) {
            sb.append(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.4f%n", c.policy().id(), c.sizeBytes(), c.granularity(), c.timeNs(),
                    c.speedupOverUa()));
        }
        return sb.toString();
    }
}
