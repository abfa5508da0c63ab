package dev.nunac.driver;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --tune NAME=v1,v2,...}: a plan parameter (the threadblocks per peer, say) searched
 * jointly with policy and granularity. Every combination of the tuned values is compiled — the
 * placement search runs for each — and the one whose chosen placement is estimated fastest wins.
 * The estimates compared are all the simulator's when it timed every combination's choice, else
 * all the analytic estimate's; ties go to the first combination listed.
 */
public final class Tuning {
    /**
     * Combinations at most: each is a whole compile, the placement search's simulations included
     * (about half a second even for a small plan), so 16 of them take seconds, not minutes.
     */
    public static final int MAX_TRIALS = 16;

    /**
     * The share of the steps limit all combinations together may have: each is searched in turn.
     * Measured on two cores with the 8-rank all-gather, 16 combinations of 15,000 steps in all take
     * 7 s, of 29,500 steps 9 s, of 101,000 steps 13 s; a sixteenth of the default limit (15,625
     * steps) keeps a tuning run to about seven seconds, and raising {@code --limit steps} raises it.
     */
    public static final int STEPS_SHARE = 16;

    /** One combination of tuned values and what its compile estimated. */
    public record Trial(Map<String, String> values, String chosen, double analyticNs, double simulatedNs) {
        double ns(boolean simulated) {
            return simulated ? simulatedNs : analyticNs;
        }

        public String label() {
            return Tuning.label(values);
        }
    }

    /** The trials in order, which won, and by which model. */
    public record Outcome(List<Trial> trials, int winner, boolean simulated) {
        public Outcome {
            trials = List.copyOf(trials);
        }

        public String summary() {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < trials.size(); i++) {
                Trial t = trials.get(i);
                parts.add(String.format(Locale.ROOT, "%s%s %.3f us (%s)", i == winner ? "*" : "", t.label(), t.ns(simulated) / 1000,
                        t.chosen()));
            }
            return "tuned " + String.join(", ", trials.get(0).values().keySet()) + " by the " + (simulated ? "simulation" : "analytic")
                    + " estimate: " + String.join("; ", parts);
        }
    }

    private Tuning() {}

    static String label(Map<String, String> values) {
        List<String> parts = new ArrayList<>();
        values.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(" ", parts);
    }

    /**
     * Parses {@code NAME=v1,v2,...} options into parameter → values, in the order given.
     * A malformed option is a usage error.
     */
    public static Map<String, List<String>> parse(List<String> options) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String o : options) {
            int eq = o.indexOf('=');
            if (eq <= 0 || eq == o.length() - 1) {
                throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune expects NAME=v1,v2,..., got '" + o + "'");
            }
            String name = o.substring(0, eq).trim();
            List<String> values = new ArrayList<>();
            for (String v : o.substring(eq + 1).split(",")) if (!v.isBlank()) values.add(value(name, v.trim()));
            if (values.isEmpty()) throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune " + name + ": no values");
            if (out.put(name, values) != null) throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune " + name + " given twice");
        }
        long n = 1;
        for (List<String> v : out.values()) n *= v.size();
        if (n > MAX_TRIALS) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune: " + n + " combinations; at most " + MAX_TRIALS);
        }
        return out;
    }

    /** A value checked here, so that a bad one is reported as --tune's and not as the -D it becomes. */
    private static String value(String name, String v) {
        if (v.equals("true") || v.equals("false")) return v;
        String digits = v.replace("_", "");
        try {
            if (dev.nunac.diag.Text.isAsciiInteger(digits)) {
                Long.parseLong(digits);
                return v;
            }
        } catch (NumberFormatException e) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune " + dev.nunac.diag.Text.shown(name) + "="
                    + dev.nunac.diag.Text.shown(v) + ": not an integer or boolean (out of range)");
        }
        throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune " + dev.nunac.diag.Text.shown(name) + "="
                + dev.nunac.diag.Text.shown(v) + ": not an integer or boolean");
    }

    /** The winner's compile, with the trials. */
    public record Tuned(CompileResult result, Outcome outcome) {}

    /**
     * Compiles the plan file once per combination of {@code tuned} values over {@code defines}
     * and keeps the fastest. Only a DSL plan has parameters to tune.
     */
    public static Tuned run(Path plan, Map<String, String> defines, Limits limits, Map<String, List<String>> tuned, Topology topo,
                            PlacementOptions options) {
        if (!plan.toString().toLowerCase(Locale.ROOT).endsWith(".msccl")) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune needs a .msccl plan: only the plan language has"
                    + " parameters (" + plan + ")");
        }
        Plan base = PlanLoader.load(plan, defines, limits);
        for (String name : tuned.keySet()) {
            if (!base.attributes().containsKey("param." + name)) {
                List<String> declared = new ArrayList<>();
                for (String k : base.attributes().keySet()) if (k.startsWith("param.")) declared.add(k.substring(6));
                throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--tune " + name + ": the plan has no parameter '" + name
                        + "' (it declares: " + String.join(", ", declared) + ")");
            }
        }
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new TreeMap<>());
        for (var e : tuned.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String v : e.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(e.getKey(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        // Every combination is read and checked against the limits before any is searched: a
        // value that makes the plan too large is reported at once, not after the searches before it.
        // Their steps together are bounded like one plan's: a compile's search costs about its steps.
        // The plans read here are the ones compiled: each is read once.
        List<Plan> plans = new ArrayList<>();
        long steps = 0, budget = Math.max(1, limits.maxSteps() / STEPS_SHARE);
        for (Map<String, String> c : combos) {
            Map<String, String> d = new TreeMap<>(defines);
            d.putAll(c);
            Plan p = PlanLoader.load(plan, d, limits);
            steps += p.stepCount();
            if (steps > budget) {
                throw new CompileException(ErrorKind.PLAN, SourcePos.of(plan.toString()), "--tune: the combinations up to "
                        + label(c) + " have more than " + budget + " steps in all, a sixteenth of the steps limit, each searched in"
                        + " turn (tune fewer values, or raise the limit with --limit steps=N)");
            }
            plans.add(p);
        }
        List<CompileResult> results = new ArrayList<>();
        List<Trial> trials = new ArrayList<>();
        for (int i = 0; i < combos.size(); i++) {
            Map<String, String> c = combos.get(i);
            CompileResult r = Driver.compile(plans.get(i), topo, options, false, null, null);
            results.add(r);
            var s = r.search();
            trials.add(new Trial(c, s.chosen().candidate().id(), s.chosen().analyticNs(),
                    s.chosen().wasSimulated() && !s.opened() ? s.chosen().simulated().ns() : Double.NaN)); // an opening's are not comparable across plans
        }
        boolean simulated = trials.stream().allMatch(t -> !Double.isNaN(t.simulatedNs()));
        int best = 0;
        for (int i = 1; i < trials.size(); i++) if (trials.get(i).ns(simulated) < trials.get(best).ns(simulated) * (1 - 1e-9)) best = i;
        Outcome outcome = new Outcome(trials, best, simulated);
        return new Tuned(results.get(best).withTuning(outcome.summary()), outcome);
    }
}
