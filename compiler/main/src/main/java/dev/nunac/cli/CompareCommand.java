package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.driver.Driver;
import dev.nunac.emit.Floorplan;
import dev.nunac.emit.OutputFiles;
import dev.nunac.emit.Plots;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.compare.PolicyComparison;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nunac compare PLAN --topo T --sizes 100KB,1MB,...}: the default search and every policy, at every size. */
@picocli.CommandLine.Command(name = CompareCommand.NAME, description = "estimate a plan under every policy and size: time and speedup over UA")
final class CompareCommand implements Command {
    /** Sizes at most in one compare. */
    static final int MAX_SIZES = 16;

    static final String NAME = "compare";

    @Mixin
    CommonOptions.PlanOptions plan;

    @Mixin
    CommonOptions.TopologyOptions topology;

    @Option(names = "--sizes", paramLabel = "LIST",
            description = "collective sizes, comma-separated, e.g. 100KB,1MB,10MB (bytes of the largest per-rank buffer)")
    String sizes;

    @Option(names = "--policies", paramLabel = "LIST",
            description = "policies to compare beside auto, the default search (default all: ${bundle:list.policies})")
    String policies;

    @Mixin
    CommonOptions.NarOption nar;

    @Option(names = "--csv", description = "print CSV instead of a table")
    boolean csv;

    @Option(names = "--plot", description = "also write speedup.svg (speedup over UA per policy and size) and store-latency.svg (UA and"
            + " the search's choice at the first size) into the output folder")
    boolean plot;

    @Option(names = "--svg", description = "also write floorplans.svg: UA and the search's choice side by side at the first size")
    boolean svg;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "folder for --plot and --svg (default out)")
    String output = "out";

    @Mixin
    CommonOptions.Quiet quiet;

    @Override
    public int run(Io io) {
        Path planPath = plan.path(NAME);
        String sz = this.sizes;
        if (sz == null) throw new UsageException(NAME, "missing --sizes LIST, e.g. --sizes 100KB,1MB,10MB");
        java.util.Map<Long, String> labels = Sizes.parseList(sz, "--sizes");
        List<Long> sizes = new ArrayList<>(labels.keySet());
        if (sizes.isEmpty()) throw new UsageException(NAME, "--sizes: no sizes given");
        // Each size runs the default search and one per policy (seconds each): hundreds would run for an hour.
        if (sizes.size() > MAX_SIZES) throw new UsageException(NAME, "--sizes: " + sizes.size() + " sizes; at most " + MAX_SIZES);
        java.util.function.Function<Long, String> label = b -> labels.getOrDefault(b, Sizes.format(b));
        List<Policy> policies = new ArrayList<>(Arrays.asList(Policy.values()));
        if (this.policies != null) policies = new ArrayList<>(CommonOptions.policies(this.policies, "--policies"));
        int granularity = nar.nar();
        Limits limits = plan.limits();
        PlacementOptions base = new PlacementOptions(Policy.all(), granularity, PlacementOptions.DEFAULT_SIZE, false, limits.maxPages());
        List<String> pictures = new ArrayList<>();
        if (plot) pictures.addAll(List.of("speedup.svg", "store-latency.svg"));
        if (svg) pictures.add("floorplans.svg");
        // the searches take seconds: an output path they could never be written to is refused first
        if (!pictures.isEmpty()) OutputFiles.checkWritable(CommonOptions.path(output, "-o"), pictures);
        CommonOptions.Inputs in = CommonOptions.inputs(plan, topology, NAME, planPath, t -> dev.nunac.passes.search.PlacementSearch.granularities(t, base));
        Topology topo = in.topology();
        Plan p = in.plan();
        int steps = 1 + sizes.size() * (policies.size() + 1) + (plot ? 2 : 0) + (svg ? 2 : 0);
        dev.nunac.compare.Progress progress = CommonOptions.progress(quiet.quiet, io, "compare", steps);
        try {
            return compare(io, p, topo, base, sizes, label, policies, progress);
        } finally {
            progress.close();
        }
    }

    private int compare(Io io, Plan plan, Topology topo, PlacementOptions base, List<Long> sizes,
                               java.util.function.Function<Long, String> label, List<Policy> policies,
                               dev.nunac.compare.Progress progress) {
        progress.step("compiling");
        // one memo of simulated times for the compile and every search after it: no placement is simulated twice
        var settings = PolicyComparison.settings();
        CompileResult compiled = Driver.compile(plan, topo, PlacementOptions.auto(base.nar(), sizes.get(0)).withMaxPages(base.maxPages()),
                settings, false, null, null);
        List<PolicyComparison.Cell> cells = PolicyComparison.run(compiled, policies, sizes, base.nar(), false, true, progress,
                label::apply, settings);
        List<String> rows = new ArrayList<>(List.of(PolicyComparison.AUTO));
        for (Policy p : policies) rows.add(p.id());
        List<Path> written = null;
        if (plot || svg) {
            // the pictures simulate again; the table waits for them so that the progress line never cuts into it
            written = pictures(plan, topo, compiled, cells, rows, sizes, label, progress);
        }
        progress.close();
        if (csv) io.out().print(PolicyComparison.csv(cells));
        else {
            io.out().printf(java.util.Locale.ROOT, "%s on %s, %d ranks, %d threadblocks: estimated completion time, speedup over ua,"
                    + " NAR granularity (auto: the default search over every policy)%n", plan.name(), topo.name(), plan.ranks(),
                    plan.threadblockCount());
            io.out().print(PolicyComparison.table(cells, rows, sizes, label::apply));
        }
        if (written != null) io.err().println(dev.nunac.diag.Text.line("nunac: wrote " + String.join(", ", written.stream().map(Path::toString).toList())));
        return 0;
    }

    private List<Path> pictures(Plan plan, Topology topo, CompileResult compiled, List<PolicyComparison.Cell> cells,
                          List<String> rows, List<Long> sizes, java.util.function.Function<Long, String> label,
                          dev.nunac.compare.Progress progress) {
        {
            OutputFiles out = new OutputFiles();
            // UA and the default search's choice at the first size
            SearchResult first = compiled.search();
            List<CompileResult> both = List.of(Driver.with(compiled, first.choosing(first.baseline()), compiled.options()), compiled);
            if (plot) {
                progress.step("speedup plot");
                out.add("speedup.svg", speedupPlot(plan, topo, cells, rows, sizes, label));
                progress.step("store-latency plot");
                out.add("store-latency.svg", latencyPlot(plan, topo, label.apply(sizes.get(0)), both));
            }
            if (svg) {
                List<java.util.Map<String, Double>> util = new ArrayList<>();
                for (CompileResult r : both) {
                    progress.step("floorplan of " + r.search().chosen().candidate().id());
                    util.add(portUtilisation(Driver.simulate(r, SimConfig.defaults())));
                }
                out.add("floorplans.svg", Floorplan.sideBySide(both, util));
            }
            return out.writeTo(CommonOptions.path(output, "-o"));
        }
    }

    static String speedupPlot(Plan plan, Topology topo, List<PolicyComparison.Cell> cells, List<String> rows, List<Long> sizes,
                              java.util.function.Function<Long, String> label) {
        List<String> xs = sizes.stream().map(label).toList();
        List<Plots.Series> series = new ArrayList<>();
        for (String row : rows) {
            double[] y = new double[sizes.size()];
            for (int i = 0; i < sizes.size(); i++) {
                y[i] = Double.NaN;
                for (PolicyComparison.Cell c : cells) if (c.row().equals(row) && c.sizeBytes() == sizes.get(i)) y[i] = c.speedupOverUa();
            }
            series.add(new Plots.Series(row, y));
        }
        boolean allSimulated = cells.stream().allMatch(PolicyComparison.Cell::simulated);
        return Plots.lineChart(plan.name() + " on " + topo.name() + ", " + plan.ranks() + " ranks: "
                + (allSimulated ? "simulated speedup over UA" : "speedup over UA (simulated; analytic where too large)"),
                "collective size", "speedup over UA", xs, series, 1.0);
    }

    /** Store-latency histograms of the given compilations (UA and the search's choice). */
    static String latencyPlot(Plan plan, Topology topo, String size, List<CompileResult> results) {
        List<Plots.Histogram> hs = new ArrayList<>();
        for (CompileResult r : results) {
            double[][] bins = Driver.simulate(r, SimConfig.defaults()).histogram().coarse(20);
            if (bins.length == 0) continue;
            long[] counts = new long[bins.length];
            for (int i = 0; i < bins.length; i++) counts[i] = Math.round(bins[i][1]);
            hs.add(new Plots.Histogram(r.search().chosen().candidate().id(), bins[0][0], 20, counts));
        }
        return Plots.histogram(plan.name() + " on " + topo.name() + ", " + size + ": simulated one-way store latency",
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
