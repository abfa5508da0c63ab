package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.emit.Floorplan;
import dev.nunac.emit.OutputFiles;
import dev.nunac.emit.Plots;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.compare.PolicyComparison;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac compare PLAN --topo T --sizes 100KB,1MB,...}: every policy x size, simulated. */
final class CompareCommand implements Command {
    static final String NAME = "compare";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "simulate a plan under every policy and size: time and speedup over UA";
    }

    @Override
    public String usage() {
        return "compare PLAN --topo TOPOLOGY --sizes LIST [-D name=value]... [--policies LIST] [--nar N|auto|off] [--csv]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.planOptions();
        CommonOptions.addTopologyOptions(o);
        o.addOption(Option.builder().longOpt("sizes").hasArg().argName("LIST")
                .desc("collective sizes, comma-separated, e.g. 100KB,1MB,10MB (bytes of the largest per-rank buffer)").get());
        o.addOption(Option.builder().longOpt("policies").hasArg().argName("LIST")
                .desc("policies to compare (default all: " + Policy.ids() + ")").get());
        CommonOptions.addNarOption(o);
        o.addOption(Option.builder().longOpt("csv").desc("print CSV instead of a table").get());
        o.addOption(Option.builder().longOpt("plot").desc("also write speedup.svg (speedup over UA per policy and size) and"
                + " store-latency.svg (UA and NAP+NAR at the first size) into the output folder").get());
        o.addOption(Option.builder().longOpt("svg").desc("also write floorplans.svg: UA and NAP+NAR side by side at the first size").get());
        o.addOption(Option.builder("o").longOpt("output").hasArg().argName("DIR").desc("folder for --plot and --svg (default out)").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, NAME);
        String sz = cl.getOptionValue("sizes");
        if (sz == null) throw new UsageException(NAME, "missing --sizes LIST, e.g. --sizes 100KB,1MB,10MB");
        List<Long> sizes = new ArrayList<>();
        for (String s : sz.split(",")) if (!s.isBlank()) sizes.add(Sizes.parse(s));
        if (sizes.isEmpty()) throw new UsageException(NAME, "--sizes: no sizes given");
        List<Policy> policies = new ArrayList<>(Arrays.asList(Policy.values()));
        String ps = cl.getOptionValue("policies");
        if (ps != null) {
            policies.clear();
            for (String p : ps.split(",")) {
                if (p.isBlank()) continue;
                policies.add(Policy.parse(p).orElseThrow(() -> new UsageException(NAME,
                        "--policies: unknown policy '" + p.trim() + "' (known: " + Policy.ids() + ")")));
            }
        }
        PlacementOptions base = CommonOptions.placementOptions(cl);
        CommonOptions.Inputs in = CommonOptions.inputs(cl, NAME, planPath);
        Topology topo = in.topology();
        Plan plan = in.plan();
        List<PolicyComparison.Cell> cells = PolicyComparison.run(plan, topo, policies, sizes, base.nar());
        if (cl.hasOption("csv")) io.out().print(PolicyComparison.csv(cells));
        else {
            io.out().printf(java.util.Locale.ROOT, "%s on %s, %d ranks, %d threadblocks: simulated completion time, speedup over ua,"
                    + " NAR granularity%n", plan.name(), topo.name(), plan.ranks(), plan.threadblockCount());
            io.out().print(PolicyComparison.table(cells, policies, sizes, Sizes::format));
        }
        if (cl.hasOption("plot") || cl.hasOption("svg")) {
            OutputFiles out = new OutputFiles();
            if (cl.hasOption("plot")) {
                out.add("speedup.svg", speedupPlot(plan, topo, cells, policies, sizes));
                out.add("store-latency.svg", latencyPlot(plan, topo, sizes.get(0), base.nar()));
            }
            if (cl.hasOption("svg")) {
                List<CompileResult> both = new ArrayList<>();
                List<java.util.Map<String, Double>> util = new ArrayList<>();
                for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
                    CompileResult r = Driver.compile(plan, topo, new PlacementOptions(p, base.nar(), sizes.get(0)), false, null, null);
                    both.add(r);
                    util.add(portUtilisation(Driver.simulate(r, SimConfig.defaults())));
                }
                out.add("floorplans.svg", Floorplan.sideBySide(both, util));
            }
            List<Path> written = out.writeTo(Path.of(cl.getOptionValue("o", "out")));
            io.err().println("nunac: wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
        }
        return 0;
    }

    static String speedupPlot(Plan plan, Topology topo, List<PolicyComparison.Cell> cells, List<Policy> policies, List<Long> sizes) {
        List<String> xs = sizes.stream().map(Sizes::format).toList();
        List<Plots.Series> series = new ArrayList<>();
        for (Policy p : policies) {
            double[] y = new double[sizes.size()];
            for (int i = 0; i < sizes.size(); i++) {
                y[i] = Double.NaN;
                for (PolicyComparison.Cell c : cells) if (c.policy() == p && c.sizeBytes() == sizes.get(i)) y[i] = c.speedupOverUa();
            }
            series.add(new Plots.Series(p.id(), y));
        }
        return Plots.lineChart(plan.name() + " on " + topo.name() + ", " + plan.ranks() + " ranks: speedup over UA",
                "collective size", "speedup over UA", xs, series, 1.0);
    }

    static String latencyPlot(Plan plan, Topology topo, long size, int nar) {
        List<Plots.Histogram> hs = new ArrayList<>();
        for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
            CompileResult r = Driver.compile(plan, topo, new PlacementOptions(p, nar, size), false, null, null);
            double[][] bins = Driver.simulate(r, SimConfig.defaults()).histogram().coarse(20);
            if (bins.length == 0) continue;
            long[] counts = new long[bins.length];
            for (int i = 0; i < bins.length; i++) counts[i] = Math.round(bins[i][1]);
            hs.add(new Plots.Histogram(p.id(), bins[0][0], 20, counts));
        }
        return Plots.histogram(plan.name() + " on " + topo.name() + ", " + Sizes.format(size) + ": one-way store latency",
                "latency (ns)", hs);
    }

    /** Rank 0's ports: id → the busier of its two directions, as a fraction of the run. */
    static java.util.Map<String, Double> portUtilisation(dev.nunac.passes.cost.SimResult sim) {
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        for (var u : sim.utilisation()) {
            String n = u.server();
            if (!n.startsWith("r0 port ")) continue;
            String id = n.substring("r0 port ".length()).replaceAll(" (in|out)$", "");
            m.merge(id, u.fraction(), Math::max);
        }
        return m;
    }
}
