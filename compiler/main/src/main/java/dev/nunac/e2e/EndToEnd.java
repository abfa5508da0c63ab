package dev.nunac.e2e;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.SimulatedModel;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.Scored;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.passes.search.SimulationMemo;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end estimate of a workload (the NUNA paper's §6.7 method, §5.2: compute and
 * communication serial): each collective is estimated under UA and under the default compile's
 * choice; a phase takes its compute time plus the sum of its collectives' times.
 */
public final class EndToEnd {
    private EndToEnd() {}

    /** One collective of a phase, estimated. */
    public record Row(Workload.Collective collective, String plan, double uaNs, double choiceNs, String choice) {}

    public record PhaseResult(Workload.Phase phase, List<Row> rows, double commUaUs, double commChoiceUs) {
        public double totalUaUs() {
            return phase.computeUs() + commUaUs;
        }

        public double totalChoiceUs() {
            return phase.computeUs() + commChoiceUs;
        }
    }

    public record Result(Workload workload, Topology topology, List<PhaseResult> phases) {}

    /** A collective estimated once per plan, defines and size, however often the workload names it. */
    record Key(String plan, Map<String, String> defines, long bytes) {}

    public static Result estimate(Workload w, Topology topo, Limits limits, java.util.function.Consumer<String> progress) {
        Map<Key, Row> memo = new HashMap<>();
        List<PhaseResult> out = new ArrayList<>();
        for (Workload.Phase ph : w.phases()) {
            List<Row> rows = new ArrayList<>();
            double ua = 0, choice = 0;
            for (Workload.Collective c : ph.collectives()) {
                Key k = new Key(c.plan().toString(), c.defines(), c.bytes());
                Row est = memo.get(k);
                if (est == null) {
                    progress.accept(ph.name() + ": " + c.plan().getFileName() + " at " + c.bytes() + " B");
                    est = estimate(c, topo, limits);
                    memo.put(k, est);
                }
                Row r = new Row(c, est.plan(), est.uaNs(), est.choiceNs(), est.choice());
                rows.add(r);
                ua += c.count() * r.uaNs() / 1000;
                choice += c.count() * r.choiceNs() / 1000;
            }
            out.add(new PhaseResult(ph, List.copyOf(rows), ua, choice));
        }
        return new Result(w, topo, List.copyOf(out));
    }

    static Row estimate(Workload.Collective c, Topology topo, Limits limits) {
        Plan plan = PlanLoader.load(c.plan(), c.defines(), limits);
        // One compile, and UA's search on it, sharing their simulations: at large sizes neither
        // search can afford to simulate, and the choice is often UA itself, whose long simulation
        // is then run once, not twice.
        SimulationMemo memo = new SimulationMemo(SimulatedModel.defaults());
        PlacementSearch.Settings settings = PlacementSearch.Settings.defaults().withSimulator(memo);
        CompileResult auto = Driver.compile(plan, topo, PlacementOptions.auto(PlacementOptions.NAR_AUTO, c.bytes()), settings, false, null, null);
        SearchResult ua = PlacementSearch.search(auto.input(), auto.groups(),
                new PlacementOptions(Policy.UA, PlacementOptions.NAR_AUTO, c.bytes()), settings);
        double u = simulated(memo, auto, ua.chosen());
        double a = simulated(memo, auto, auto.search().chosen());
        Placement p = auto.placement();
        String choice = p.policy().id() + (p.policy().nar && p.granularity() > 1 ? " k=" + p.granularity() : "");
        return new Row(c, plan.name(), u, a, choice);
    }

    /** A candidate's simulated time: the search's own run when it timed it whole, else a run of the default simulator. */
    static double simulated(SimulationMemo memo, CompileResult r, Scored s) {
        return s.wasSimulated() && s.simulated().simulation() != null ? s.simulated().ns() : memo.estimate(r.input(), s.placement()).ns();
    }

    /** The report: one row per collective, then per phase, then TTFT and TPOT. */
    public static String text(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("workload   ").append(r.workload().name()).append('\n');
        if (!r.workload().description().isEmpty()) sb.append("           ").append(r.workload().description()).append('\n');
        sb.append("topology   ").append(r.topology().name()).append('\n');
        sb.append("method     compute and communication serial (the NUNA paper's §5.2); each collective simulated under ua and"
                + " under the default compile's choice\n\n");
        sb.append(String.format(Locale.ROOT, "%-8s %-40s %14s %7s %11s %11s %8s  %s%n", "phase", "collective", "bytes", "count",
                "ua (us)", "choice (us)", "speedup", "choice"));
        for (PhaseResult p : r.phases()) {
            for (Row row : p.rows()) {
                String name = row.plan() + defines(row.collective().defines());
                sb.append(String.format(Locale.ROOT, "%-8s %-40s %14d %7d %11.3f %11.3f %7.2fx  %s%n", p.phase().name(), name,
                        row.collective().bytes(), row.collective().count(), row.uaNs() / 1000, row.choiceNs() / 1000,
                        row.uaNs() / row.choiceNs(), row.choice()));
            }
        }
        sb.append('\n').append(String.format(Locale.ROOT, "%-8s %13s %13s %13s %13s %13s %8s %9s%n", "phase", "compute (us)",
                "comm ua", "comm choice", "total ua", "total choice", "change", "comm"));
        for (PhaseResult p : r.phases()) {
            sb.append(String.format(Locale.ROOT, "%-8s %13.1f %13.1f %13.1f %13.1f %13.1f %7.1f%% %8.2fx%n", p.phase().name(),
                    p.phase().computeUs(), p.commUaUs(), p.commChoiceUs(), p.totalUaUs(), p.totalChoiceUs(),
                    change(p.totalUaUs(), p.totalChoiceUs()), p.commChoiceUs() > 0 ? p.commUaUs() / p.commChoiceUs() : 1.0));
        }
        sb.append('\n');
        for (PhaseResult p : r.phases()) {
            String what = p.phase().name().equals("prefill") ? "TTFT" : "TPOT";
            sb.append(String.format(Locale.ROOT, "%s  ua %.1f us, choice %.1f us: %.1f %% %s%n", what, p.totalUaUs(), p.totalChoiceUs(),
                    Math.abs(change(p.totalUaUs(), p.totalChoiceUs())), p.totalChoiceUs() <= p.totalUaUs() ? "lower" : "higher"));
        }
        return sb.toString();
    }

    /** Change of {@code after} against {@code before}, in per cent (negative: lower). */
    public static double change(double before, double after) {
        return before > 0 ? (after - before) / before * 100 : 0;
    }

    static String defines(Map<String, String> d) {
        if (d.isEmpty()) return "";
        StringBuilder sb = new StringBuilder();
        new java.util.TreeMap<>(d).forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }
}
