package dev.nunac.reproduction;

import dev.nunac.compare.Progress;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.e2e.EndToEnd;
import dev.nunac.e2e.Workload;
import dev.nunac.e2e.WorkloadReader;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.Gemm;
import dev.nunac.passes.cost.LatencyStats;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.cost.SimulatedModel;
import dev.nunac.passes.cost.Simulator;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.passes.search.SimulationMemo;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Regenerates the data of the NUNA paper's Figures 9–15 on nuna-4die and fills them into the
 * reproduction document's template ({@code {{FIG9}}} ... {{FIG15}}), and the default
 * compile's search against them ({@code {{BOUND}}}, {@code {{SEARCH}}}: {@link SearchAcceptance}).
 * Usage: {@code PaperReproduction TEMPLATE OUTPUT [--full] [--gpus=N,..] [--sizes=BYTES,..] [--timings]};
 * without --full, Fig. 9 and the search grid cover 8 GPUs only and sizes up to 10 MB (Fig. 12
 * always runs 100 kB to 1 GB); --gpus and --sizes pick other points. Only the figures the
 * template names are computed, so {@code bench/paper-reproduction-fig9.md.in} with --full runs
 * the long Fig. 9 sweep alone.
 */
public final class PaperReproduction {
    static final List<Policy> FIG9 = List.of(Policy.UA_NAR, Policy.NUMA_NAR, Policy.NAP_NAR);
    /** Threadblocks per peer that Fig. 12's best-count table tries: 7, 112 and 1,008 per GPU at 8 GPUs. */
    static final int[] TBS_PER_PEER = {1, 16, 144};
    final Topology topo = TopologyResolver.resolve("nuna-4die");
    /** Fig. 13's what-if: nuna-4die with a stack beside every port router (not the paper's layout). */
    final Topology whatIf;
    final Path examples;
    /** What the figures measured, for the claims table. */
    final PaperClaims claims = new PaperClaims();

    /** The other reading of Table 2's 10 TB/s bisection: each direction's (nuna-4die reads it as both directions together). */
    final Topology perDirection;

    PaperReproduction(Path examples, Path whatIfOverride) {
        this.examples = examples;
        this.whatIf = TopologyResolver.resolve("nuna-4die", whatIfOverride);
        this.perDirection = TopologyResolver.resolve("nuna-4die", whatIfOverride.resolveSibling(BISECTION));
    }

    /** The override (in bench/) that reads the bisection per direction: twice nuna-4die's link bandwidth. */
    static final String BISECTION = "whatif-bisection-per-direction.json";

    /** The override (in bench/) that moves nuna-4die's stacks beside the port routers for Fig. 13's what-if. */
    static final String WHAT_IF = "whatif-stacks-beside-ports.json";

    /** Progress of the reproduction: shown on a terminal unless --quiet. */
    static Progress progress = Progress.NONE;

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: PaperReproduction TEMPLATE OUTPUT [--full] [--gpus=N,..] [--sizes=BYTES,..] [--fig9-from=SWEEP_DIR] [--quiet] [--timings] [--side-by-side]");
            System.exit(2);
        }
        boolean full = List.of(args).contains("--full");
        int[] gpus = full ? new int[] {2, 4, 8, 16, 32, 64} : new int[] {8};
        long[] sizes = full ? new long[] {100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L}
                : new long[] {100_000L, 1_000_000L, 10_000_000L};
        for (String a : args) {
            if (a.startsWith("--gpus=")) gpus = java.util.Arrays.stream(a.substring(7).split(",")).mapToInt(Integer::parseInt).toArray();
            if (a.startsWith("--sizes=")) sizes = java.util.Arrays.stream(a.substring(8).split(",")).mapToLong(Long::parseLong).toArray();
        }
        int[] g = gpus;
        long[] sz = sizes;
        Path template = Path.of(args[0]);
        Path bench = template.toAbsolutePath().getParent();
        progress = Progress.start(System.err, Progress.shown(Progress.terminal(), List.of(args).contains("--quiet")), "paper reproduction", 0);
        PaperReproduction p = new PaperReproduction(bench.getParent().resolve("examples"), bench.resolve(WHAT_IF));
        String doc = Files.readString(template, StandardCharsets.UTF_8);
        // Only the figures the template names are computed (a template of one figure runs that figure alone).
        // --fig9-from=DIR: Fig. 9 from a sweep's point files (bench/reproduce-paper.sh --full runs the sweep first)
        String from = List.of(args).stream().filter(a -> a.startsWith("--fig9-from=")).map(a -> a.substring(12)).findFirst().orElse(null);
        doc = fill(doc, "{{FIG9}}", () -> from != null ? p.fig9(Path.of(from), g, sz) : p.fig9(g, sz));
        SearchAcceptance search = new SearchAcceptance(p);
        doc = fill(doc, "{{SEARCH}}", () -> search.grid(g, sz, List.of(args).contains("--side-by-side")));
        doc = fill(doc, "{{CONVERGENCE}}", () -> search.convergence(1_000_000_000L));
        doc = fill(doc, "{{BOUND}}", () -> search.bound((plan, size) -> {
            double ua = p.time(plan, Policy.UA, size);
            return ua / p.time(plan, Policy.NAP_NAR, size);
        }));
        BestThreadblocks best = new BestThreadblocks(p);
        doc = fill(doc, "{{FIG9_BEST}}", () -> best.fig9(full ? BestThreadblocks.FIG9_SIZES_FULL : BestThreadblocks.FIG9_SIZES));
        doc = fill(doc, "{{FIG10}}", p::fig10);
        doc = fill(doc, "{{FIG10_BEST}}", best::fig10);
        doc = fill(doc, "{{FIG11}}", p::fig11);
        doc = fill(doc, "{{FIG11_BEST}}", best::fig11);
        doc = fill(doc, "{{BISECTION}}", p::bisection);
        doc = fill(doc, "{{FIG12}}", p::fig12);
        doc = fill(doc, "{{FIG13}}", p::fig13);
        doc = fill(doc, "{{FIG14}}", p::fig14);
        doc = fill(doc, "{{FIG15}}", p::fig15);
        doc = fill(doc, "{{CLAIMS}}", p.claims::table); // after the figures, whose measurements it reports
        progress.close();
        Files.writeString(Path.of(args[1]), doc, StandardCharsets.UTF_8);
        // the simulations each figure ran itself (a point another figure ran first is not counted again)
        if (List.of(args).contains("--timings")) System.err.print(TIMINGS);
    }

    static String fill(String doc, String placeholder, java.util.function.Supplier<String> figure) {
        if (!doc.contains(placeholder)) return doc;
        long wall = System.nanoTime(), cpu = processCpuNs(), runs = SIMULATIONS.get();
        String text = figure.get();
        TIMINGS.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %,d |%n", placeholder.replace("{", "").replace("}", ""),
                (System.nanoTime() - wall) / 1e9, (processCpuNs() - cpu) / 1e9, SIMULATIONS.get() - runs));
        return doc.replace(placeholder, text);
    }

    /** Points simulated, for --timings (the compiles behind them simulate more: NAR auto times every granularity). */
    static final java.util.concurrent.atomic.AtomicLong SIMULATIONS = new java.util.concurrent.atomic.AtomicLong();
    static final StringBuilder TIMINGS = new StringBuilder("| figure | wall (s) | CPU (s) | points simulated |\n|---|---|---|---|\n");

    static long processCpuNs() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    /** Threadblocks per peer for a pod: 1 (7 per GPU at 8 GPUs) unless asked otherwise. Figures load plans from several threads. */
    synchronized Plan plan(String example, int ranks, int tbsPerPeer) {
        String name = example + " ranks=" + ranks + " tbs_per_peer=" + tbsPerPeer;
        return plans.computeIfAbsent(name, k -> {
            Plan p = PlanLoader.load(examples.resolve(example + ".msccl"),
                    Map.of("ranks", String.valueOf(ranks), "tbs_per_peer", String.valueOf(tbsPerPeer)), Limits.DEFAULT);
            planNames.put(p, k);
            return p;
        });
    }

    /** Each plan loaded once, and its name: the figures share points (Fig. 9's 8 GPUs are Figs. 10-12's and the bound's). */
    private final Map<String, Plan> plans = new java.util.HashMap<>();
    private final Map<Plan, String> planNames = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());
    /** Simulations already run, by plan, policy, size and granularity on nuna-4die: the same point simulates to the same result. */
    private final Map<String, SimResult> sims = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Every simulation of the reproduction, the searches' and the figures' own, by compiled plan,
     * topology, size and placement: the figures share placements as well as points (UA is timed
     * by the search of every policy at a size, a NAR policy at granularity 1 places as its twin
     * without NAR, Fig. 13's granularities are those the search timed, Fig. 14's configurations
     * are Fig. 9's), and each is simulated once, the same result as a fresh run. It keeps every
     * simulation until the reproduction ends: a few hundred, of plans of at most 16,128 steps.
     */
    final SimulationMemo memo = SimulationMemo.keepingAll(SimulatedModel.defaults());
    /** The default compile's search settings, timing through {@link #memo}. */
    final PlacementSearch.Settings settings = PlacementSearch.Settings.defaults().withSimulator(memo);

    /** A plan through the passes before the placement search, which read neither the topology nor the options: every search of the plan starts from it. */
    record Analysed(Plan plan, Accesses accesses, LogicalGroups groups) {
        PlacementInput on(Topology t, PlacementOptions o) {
            return new PlacementInput(plan, accesses, t, o.sizeBytes(), o.repack());
        }
    }

    /** The compile's passes before the placement search (check, access analysis, logical allocation). */
    static final Pipeline BEFORE_SEARCH = Pipeline.of(Driver.PIPELINE.passes().subList(0, Driver.PIPELINE.names().indexOf("placement-search")));

    /** Each plan analysed once, by identity: a compile of it would run the same passes to the same result. */
    private final Map<Plan, Analysed> analysed = new java.util.IdentityHashMap<>();

    synchronized Analysed analysed(Plan plan) {
        return analysed.computeIfAbsent(plan, k -> {
            Diagnostics diags = new Diagnostics();
            Compilation c = new Compilation(k, diags);
            BEFORE_SEARCH.run(c, false, null, null);
            diags.throwIfErrors(ErrorKind.PLAN);
            return new Analysed(c.plan(), c.get(Accesses.KEY), c.get(LogicalGroups.KEY));
        });
    }

    /** The placement search of a compile of the plan on {@code t} under the options, timing through {@link #memo}. */
    SearchResult search(Topology t, Plan plan, PlacementOptions o) {
        Analysed a = analysed(plan);
        return PlacementSearch.search(a.on(t, o), a.groups(), o, settings);
    }

    /** A placement of the plan on {@code t} at the options' size, simulated with the default settings (once: {@link #memo}). */
    SimResult simulation(Topology t, Plan plan, PlacementOptions o, Placement p) {
        return memo.estimate(analysed(plan).on(t, o), p).simulation();
    }

    /** The search's choice simulated: the search's own run when it timed it (as {@link Driver#simulate(dev.nunac.driver.CompileResult, SimConfig)} reads it). */
    SimResult chosen(Topology t, Plan plan, PlacementOptions o, SearchResult s) {
        // an opening's estimate carries no simulation of the whole run: that one is simulated here
        var e = s.chosen().simulated();
        return e != null && e.simulation() != null ? e.simulation() : simulation(t, plan, o, s.chosen().placement());
    }

    SimResult sim(Plan plan, Policy p, long size, int nar) {
        return sim(topo, plan, p, size, nar);
    }

    /** A point on one of the reproduction's topologies, simulated once (a plan not loaded by {@link #plan} is not kept). */
    SimResult sim(Topology t, Plan plan, Policy p, long size, int nar) {
        String name = planNames.get(plan), on = topologyName(t);
        if (name == null || on == null) return simulate(t, plan, p, size, nar);
        String key = key(on, name, p, size, nar);
        SimResult r = sims.get(key);
        if (r == null) {
            r = simulate(t, plan, p, size, nar);
            sims.putIfAbsent(key, r);
        }
        return r;
    }

    private String topologyName(Topology t) {
        return t == topo ? "nuna-4die" : t == whatIf ? "what-if" : t == perDirection ? "per-direction" : null;
    }

    /** A simulated point: a topology of the reproduction (null: nuna-4die), a plan loaded by {@link #plan}, a policy, a size and a granularity. */
    record Point(Topology topo, Plan plan, Policy policy, long size, int nar) {
        Point(Plan plan, Policy policy, long size, int nar) {
            this(null, plan, policy, size, nar);
        }
    }

    /**
     * Simulates the points not yet simulated, side by side on the machine's cores: each point is
     * a pure function of its inputs, so the figures read back the same numbers in any order.
     * The largest plans and sizes go first, so that no long point starts last.
     */
    void warm(List<Point> points) {
        Map<String, Point> todo = new java.util.LinkedHashMap<>();
        for (Point pt : points) {
            Topology t = pt.topo() == null ? topo : pt.topo();
            String key = key(topologyName(t), planNames.get(pt.plan()), pt.policy(), pt.size(), pt.nar());
            if (!sims.containsKey(key)) todo.putIfAbsent(key, pt);
        }
        List<Point> list = new java.util.ArrayList<>(todo.values());
        list.sort(java.util.Comparator.comparingInt((Point pt) -> pt.plan().stepCount()).thenComparingLong(Point::size).reversed());
        inParallel(list, pt -> sim(pt.topo() == null ? topo : pt.topo(), pt.plan(), pt.policy(), pt.size(), pt.nar()));
    }

    /**
     * Runs {@code f} on every item, one worker per core taking the next item in order: given the
     * longest items first, none starts last (a parallel stream takes its parts in no set order).
     */
    static <T> void inParallel(List<T> items, java.util.function.Consumer<T> f) {
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        int workers = Math.min(items.size(), Runtime.getRuntime().availableProcessors());
        java.util.stream.IntStream.range(0, workers).parallel().forEach(w -> {
            for (int i = next.getAndIncrement(); i < items.size(); i = next.getAndIncrement()) f.accept(items.get(i));
        });
    }

    private static String key(String topology, String plan, Policy p, long size, int nar) {
        return topology + " " + plan + " " + p.id() + " " + size + " " + nar;
    }

    /**
     * Places the plan on {@code t} under the policy, as a compile would, and simulates the choice
     * with the default settings. Chunks smaller than a page may be packed into pages in every
     * buffer, as the paper assumes.
     */
    SimResult simulate(Topology t, Plan plan, Policy p, long size, int nar) {
        PlacementOptions o = new PlacementOptions(p, nar, size).withRepack(true);
        SimResult s = chosen(t, plan, o, search(t, plan, o));
        SIMULATIONS.incrementAndGet();
        return s;
    }

    double time(Plan plan, Policy p, long size) {
        return sim(plan, p, size, PlacementOptions.NAR_AUTO).completionNs();
    }

    static String size(long b) {
        if (b >= 1_000_000_000L) return b / 1_000_000_000L + " GB";
        if (b >= 1_000_000L) return b / 1_000_000L + " MB";
        return b / 1000L + " kB";
    }

    /** A Fig. 9 point's time: collective, GPUs, policy, size. */
    interface Fig9Times {
        double ns(String collective, int gpus, Policy p, long size);
    }

    static final List<String> FIG9_COLLECTIVES = List.of("allgather-direct", "allreduce-allpairs", "alltoall-direct");

    /** Fig. 9 simulated here, one threadblock per peer. */
    String fig9(int[] gpus, long[] sizes) {
        List<Point> points = new java.util.ArrayList<>();
        for (String ex : FIG9_COLLECTIVES) {
            for (int g : gpus) {
                for (long s : sizes) {
                    points.add(new Point(plan(ex, g, 1), Policy.UA, s, PlacementOptions.NAR_AUTO));
                    for (Policy p : FIG9) points.add(new Point(plan(ex, g, 1), p, s, PlacementOptions.NAR_AUTO));
                }
            }
        }
        warm(points);
        return fig9(gpus, sizes, (ex, g, p, s) -> time(plan(ex, g, 1), p, s));
    }

    /**
     * Fig. 9 from a sweep's folder ({@code nunac sweep bench/sweep-fig9.json -o DIR}, whole or in
     * shards on a cluster, {@code "timing": "simulation"}): every point read from its file, the
     * same numbers as {@link #fig9(int[], long[])} computes.
     */
    String fig9(java.nio.file.Path sweep, int[] gpus, long[] sizes) {
        Map<String, dev.nunac.sweep.PointResult> byPoint = new java.util.HashMap<>();
        for (dev.nunac.sweep.PointResult r : dev.nunac.sweep.SweepMerge.results(sweep, true).points()) {
            byPoint.put(r.plan() + " " + r.gpus() + " " + r.sizeBytes(), r);
        }
        return fig9(gpus, sizes, (ex, g, p, s) -> {
            dev.nunac.sweep.PointResult r = byPoint.get(ex + " " + g + " " + s);
            if (r == null) throw new IllegalArgumentException(sweep + ": no point for " + ex + " at " + g + " GPUs and " + s + " bytes");
            for (dev.nunac.sweep.PointResult.Row row : r.rows()) {
                if (row.policy().equals(p.id())) {
                    if (!row.model().equals("simulation")) throw new IllegalArgumentException(sweep + ": " + r.id() + " " + p.id()
                            + " was timed by the " + row.model() + " estimate; the reproduction needs \"timing\": \"simulation\"");
                    return row.timeNs();
                }
            }
            throw new IllegalArgumentException(sweep + ": " + r.id() + " has no row " + p.id());
        });
    }

    /** The Fig. 9 table; its UA+NAR and NAP+NAR bests go to the claims table. */
    String fig9(int[] gpus, long[] sizes, Fig9Times times) {
        StringBuilder sb = new StringBuilder("| collective | GPUs | size | UA (us) | UA+NAR | NUMA+NAR | NAP+NAR |\n|---|---|---|---|---|---|---|\n");
        double[] best = new double[FIG9.size()];
        String[] at = new String[FIG9.size()];
        for (String ex : FIG9_COLLECTIVES) {
            for (int g : gpus) {
                for (long s : sizes) {
                    PaperReproduction.progress.step(String.format(Locale.ROOT, "fig. 9: %s, %d GPUs, %s", ex, g, size(s)));
                    double ua = times.ns(ex, g, Policy.UA, s);
                    sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f |", ex, g, size(s), ua / 1000));
                    for (int i = 0; i < FIG9.size(); i++) {
                        double x = ua / times.ns(ex, g, FIG9.get(i), s);
                        sb.append(String.format(Locale.ROOT, " %.2fx |", x));
                        if (x > best[i]) {
                            best[i] = x;
                            at[i] = String.format(Locale.ROOT, "%s, %d GPUs, %s", ex, g, size(s));
                        }
                    }
                    sb.append('\n');
                }
            }
        }
        claims.put("nar", String.format(Locale.ROOT, "up to %.2fx (%s)", best[0], at[0]));
        claims.put("nap+nar", String.format(Locale.ROOT, "up to %.2fx (%s)", best[2], at[2]));
        return sb.toString();
    }

    String fig10() {
        Plan plan = plan("allgather-direct", 8, 1);
        StringBuilder sb = new StringBuilder("| configuration | mean (ns) | p50 | p99 | max | paper mean | paper max |\n|---|---|---|---|---|---|---|\n");
        String[][] paper = {{"920", "1,320"}, {"780", "1,180"}};
        int i = 0;
        StringBuilder hist = new StringBuilder();
        double[] max = new double[2];
        for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
            SimResult s = sim(plan, p, 1_000_000L, PlacementOptions.NAR_AUTO);
            LatencyStats l = s.storeLatency();
            max[i] = l.maxNs();
            claims.put(i == 0 ? "fig10-ua" : "fig10-nn", String.format(Locale.ROOT, "mean %.0f ns, max %,.0f ns", l.meanNs(), l.maxNs()));
            sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %s | %s |%n", p.id(), l.meanNs(), l.p50Ns(), l.p99Ns(),
                    l.maxNs(), paper[i][0], paper[i][1]));
            hist.append(String.format(Locale.ROOT, "%n%s (20 ns bins, flits):%n%n```%n%s```%n", p.id(), s.histogram().text(20, 40)));
            i++;
        }
        claims.put("fig10-max", String.format(Locale.ROOT, "%.0f %% lower", 100 * (1 - max[1] / max[0])));
        return sb + readings(plan) + hist.toString();
    }

    /**
     * Fig. 10 under both readings of "1 MB" (10^6 and 2^20 bytes) and without the destination's
     * memory write (the spec's fixed latency taken off every store, as a store counted until it
     * reaches the stack's controller would read).
     */
    String readings(Plan plan) {
        double write = topo.memory().latencyNs().value();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nThe same under both readings of \"1 MB\", with and without the"
                + " destination's %.0f ns memory write:%n%n| configuration | size | mean (ns) | max | mean without the write | max without"
                + " | paper mean | paper max |%n|---|---|---|---|---|---|---|---|%n", write));
        String[][] paper = {{"920", "1,320"}, {"780", "1,180"}};
        int i = 0;
        for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
            for (long size : new long[] {1_000_000L, 1L << 20}) {
                LatencyStats l = sim(plan, p, size, PlacementOptions.NAR_AUTO).storeLatency();
                sb.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f | %.0f | %s | %s |%n", p.id(),
                        size == 1_000_000L ? "10^6 B" : "2^20 B", l.meanNs(), l.maxNs(), l.meanNs() - write, l.maxNs() - write, paper[i][0], paper[i][1]));
            }
            i++;
        }
        return sb.toString();
    }

    String fig11() {
        Plan plan = plan("allgather-direct", 8, 1);
        StringBuilder sb = new StringBuilder("| policy | 100 kB | 10 MB |\n|---|---|---|\n");
        List<Point> points = new java.util.ArrayList<>();
        for (Policy p : Policy.values()) for (long s : new long[] {100_000L, 10_000_000L}) points.add(new Point(plan, p, s, PlacementOptions.NAR_AUTO));
        warm(points);
        double ua1 = time(plan, Policy.UA, 100_000L), ua2 = time(plan, Policy.UA, 10_000_000L);
        for (Policy p : Policy.values()) {
            double a = ua1 / time(plan, p, 100_000L), b = ua2 / time(plan, p, 10_000_000L);
            sb.append(String.format(Locale.ROOT, "| %s | %.2fx | %.2fx |%n", p.id(), a, b));
            if (p == Policy.NAP) claims.put("nap", String.format(Locale.ROOT, "%.2fx at 100 kB, %.2fx at 10 MB (all-gather, 8 GPUs)", a, b));
        }
        sb.append("\nWhere the time goes under UA and UA+NAR: the busiest server of the run (busy time over the completion time),"
                + " and the busiest of each kind that bounds a store's path: the CU's injection, a router's injection and"
                + " ejection, a NoC link, an egress port, an HBM stack.\n\n"
                + "| size | policy | time (us) | busiest | CU | router in | router out | link | port out | stack |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (long size : new long[] {100_000L, 10_000_000L}) {
            for (Policy p : List.of(Policy.UA, Policy.UA_NAR)) {
                SimResult r = sim(plan, p, size, PlacementOptions.NAR_AUTO);
                sb.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %s |", size(size), p.id(), r.completionNs() / 1000,
                        busy(r.utilisation().isEmpty() ? null : r.utilisation().get(0), true)));
                for (String kind : List.of("cu", "router-in", "router-out", "link", "port-out", "stack")) {
                    sb.append(' ').append(busy(r.busiest(kind), false)).append(" |");
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** A server and its busy fraction: {@code r3 cu 17 (41 %)}; with its kind when asked. */
    static String busy(dev.nunac.passes.cost.Utilisation u, boolean kind) {
        if (u == null) return "-";
        return String.format(Locale.ROOT, "%s%s (%.0f %%)", u.server(), kind ? ", " + u.kind() : "", 100 * u.fraction());
    }

    /**
     * Figs. 10 and 11 under the other reading of the 10 TB/s bisection (each direction's, so NoC
     * links twice as wide as nuna-4die's), beside nuna-4die's own numbers.
     */
    String bisection() {
        Plan plan = plan("allgather-direct", 8, 1);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "NoC links: nuna-4die %s GB/s per direction, the other reading"
                + " %s GB/s.%n%nFig. 10 (1 MB all-gather, one-way store latency):%n%n| configuration | mean (ns), both directions |"
                + " max | mean (ns), per direction | max | paper mean | paper max |%n|---|---|---|---|---|---|---|%n",
                dev.nunac.topology.TopologyPrinter.num(topo.nocFigures().linkBandwidthGBs().value()),
                dev.nunac.topology.TopologyPrinter.num(perDirection.nocFigures().linkBandwidthGBs().value())));
        String[][] paper = {{"920", "1,320"}, {"780", "1,180"}};
        List<Point> points = new java.util.ArrayList<>();
        for (Topology t : List.of(topo, perDirection)) {
            for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) points.add(new Point(t, plan, p, 1_000_000L, PlacementOptions.NAR_AUTO));
            for (Policy p : Policy.values()) {
                for (long s : new long[] {100_000L, 10_000_000L}) points.add(new Point(t, plan, p, s, PlacementOptions.NAR_AUTO));
            }
        }
        warm(points);
        int i = 0;
        for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
            LatencyStats a = sim(plan, p, 1_000_000L, PlacementOptions.NAR_AUTO).storeLatency();
            LatencyStats b = sim(perDirection, plan, p, 1_000_000L, PlacementOptions.NAR_AUTO).storeLatency();
            sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %s | %s |%n", p.id(), a.meanNs(), a.maxNs(),
                    b.meanNs(), b.maxNs(), paper[i][0], paper[i][1]));
            i++;
        }
        sb.append("\nFig. 11 (speedup over UA, each reading against its own UA):\n\n| policy | 100 kB, both directions | 100 kB, per direction"
                + " | 10 MB, both directions | 10 MB, per direction |\n|---|---|---|---|---|\n");
        double ua1 = time(plan, Policy.UA, 100_000L), ua2 = time(plan, Policy.UA, 10_000_000L);
        double pd1 = sim(perDirection, plan, Policy.UA, 100_000L, PlacementOptions.NAR_AUTO).completionNs();
        double pd2 = sim(perDirection, plan, Policy.UA, 10_000_000L, PlacementOptions.NAR_AUTO).completionNs();
        for (Policy p : Policy.values()) {
            sb.append(String.format(Locale.ROOT, "| %s | %.2fx | %.2fx | %.2fx | %.2fx |%n", p.id(), ua1 / time(plan, p, 100_000L),
                    pd1 / sim(perDirection, plan, p, 100_000L, PlacementOptions.NAR_AUTO).completionNs(), ua2 / time(plan, p, 10_000_000L),
                    pd2 / sim(perDirection, plan, p, 10_000_000L, PlacementOptions.NAR_AUTO).completionNs()));
        }
        return sb.toString();
    }

    String fig12() {
        Plan plan = plan("allgather-direct", 8, 1);
        long[] sizes = {100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L};
        new BestThreadblocks(this).warm(List.of("allgather-direct"), List.of(Policy.UA, Policy.NAP_NAR), sizes);
        StringBuilder sb = new StringBuilder("| size | UA (us) | NAP+NAR (us) | speedup |\n|---|---|---|---|\n");
        StringBuilder trend = new StringBuilder();
        for (long s : sizes) {
            double ua = time(plan, Policy.UA, s), nn = time(plan, Policy.NAP_NAR, s);
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2fx |%n", size(s), ua / 1000, nn / 1000, ua / nn));
            trend.append(trend.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2fx at %s", ua / nn, size(s)));
        }
        claims.put("fig12", trend.toString());
        sb.append("\nWith the best-performing number of threadblocks for each policy and size (7, 112 or 1,008 per GPU),"
                + " as the paper does:\n\n| size | UA (us) | UA threadblocks | NAP+NAR (us) | NAP+NAR threadblocks | speedup |\n"
                + "|---|---|---|---|---|---|\n");
        BestThreadblocks counts = new BestThreadblocks(this);
        for (long s : sizes) {
            BestThreadblocks.Best ua = counts.best("allgather-direct", Policy.UA, s), nn = counts.best("allgather-direct", Policy.NAP_NAR, s);
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %,d | %.2f | %,d | %.2fx |%n", size(s), ua.ns() / 1000,
                    ua.threadblocks(), nn.ns() / 1000, nn.threadblocks(), ua.ns() / nn.ns()));
        }
        return sb.toString();
    }

    /** The fastest time over the plans, and the index of the plan that gave it (the first on ties). */
    double[] best(List<Plan> plans, Policy p, long size) {
        double[] b = {Double.POSITIVE_INFINITY, -1};
        for (int i = 0; i < plans.size(); i++) {
            double t = time(plans.get(i), p, size);
            if (t < b[0]) b = new double[] {t, i};
        }
        return b;
    }

    static final int[] FIG13_K = {2, 4, 6, 12};

    String fig13() {
        StringBuilder sb = new StringBuilder("| layout | threadblocks per GPU | hashed (us) | k=2 | k=4 | k=6 | k=12 |\n|---|---|---|---|---|---|---|\n");
        SimResult[] manyOnNuna = null;
        StringBuilder fig13Best = new StringBuilder();
        List<Point> points = new java.util.ArrayList<>();
        for (Topology t : List.of(topo, whatIf)) {
            for (int tpp : new int[] {144, 1}) {
                points.add(new Point(t, plan("allgather-direct", 8, tpp), Policy.NAP_NAR, 1_000_000L, PlacementOptions.NAR_OFF));
                for (int k : FIG13_K) points.add(new Point(t, plan("allgather-direct", 8, tpp), Policy.NAP_NAR, 1_000_000L, k));
            }
        }
        warm(points);
        for (Topology t : List.of(topo, whatIf)) {
            for (int tpp : new int[] {144, 1}) {
                Plan plan = plan("allgather-direct", 8, tpp);
                double base = sim(t, plan, Policy.NAP_NAR, 1_000_000L, PlacementOptions.NAR_OFF).completionNs();
                sb.append(String.format(Locale.ROOT, "| %s | %,d | %.2f |", t == topo ? "nuna-4die" : "what-if", 7 * tpp, base / 1000));
                SimResult[] byK = new SimResult[FIG13_K.length];
                int fastest = 0;
                for (int i = 0; i < FIG13_K.length; i++) {
                    byK[i] = sim(t, plan, Policy.NAP_NAR, 1_000_000L, FIG13_K[i]);
                    sb.append(String.format(Locale.ROOT, " %.2fx |", base / byK[i].completionNs()));
                    if (byK[i].completionNs() < byK[fastest].completionNs()) fastest = i;
                }
                sb.append('\n');
                fig13Best.append(fig13Best.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "%s, %,d threadblocks: k=%d",
                        t == topo ? "nuna-4die" : "what-if", 7 * tpp, FIG13_K[fastest]));
                if (t == topo && tpp == 144) manyOnNuna = byK;
            }
        }
        claims.put("fig13", fig13Best.toString());
        sb.append("\nnuna-4die, 1,008 threadblocks per GPU: the slowest threadblock (finish, us) by how far its CU is from the"
                + " nearest HBM stack:\n\n| hops from CU to nearest stack |");
        for (int k : FIG13_K) sb.append(" k=").append(k).append(" |");
        sb.append("\n|---|---|---|---|---|\n");
        double[][] slowest = new double[FIG13_K.length][];
        int maxHops = 0;
        for (int i = 0; i < FIG13_K.length; i++) {
            slowest[i] = manyOnNuna[i].slowestByHopsToStack(topo);
            maxHops = Math.max(maxHops, slowest[i].length - 1);
        }
        for (int h = 0; h <= maxHops; h++) {
            sb.append("| ").append(h).append(" |");
            for (double[] byHops : slowest) {
                sb.append(h < byHops.length && byHops[h] > 0 ? String.format(Locale.ROOT, " %.3f |", byHops[h] / 1000) : " – |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Fig. 14's GEMM: the paper's 100 tiles, each tile's inputs swept (a 64x range of GEMM sizes and more). */
    static final int FIG14_TILES = 100;
    static final long[] FIG14_TILE_BYTES = {4L << 10, 16L << 10, 64L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20};
    /** A collective degrades when it is this much slower than without the GEMM. */
    static final double DEGRADED = 1.10;

    /**
     * Fig. 14: the 8-GPU 1 MB all-gather beside a GEMM of growing size, under UA and under the
     * default compile's choice (made without knowing of the GEMM), and the first size at which
     * each is more than 10 % slower than alone.
     */
    String fig14() {
        Plan plan = plan("allgather-direct", 8, 1);
        long size = 1_000_000L;
        // the configurations as compiles would choose them (NAP+NAR is Fig. 9's point), each alone timed once
        List<PlacementOptions> options = List.of(new PlacementOptions(Policy.UA, PlacementOptions.NAR_AUTO, size),
                PlacementOptions.auto(PlacementOptions.NAR_AUTO, size),
                new PlacementOptions(Policy.NAP_NAR, PlacementOptions.NAR_AUTO, size).withRepack(true));
        List<Placement> configs = new java.util.ArrayList<>();
        double[] alone = new double[3];
        long[] degradesAt = {-1, -1, -1};
        for (int i = 0; i < 3; i++) {
            SearchResult s = search(topo, plan, options.get(i));
            configs.add(s.chosen().placement());
            alone[i] = chosen(topo, plan, options.get(i), s).completionNs();
        }
        Analysed a = analysed(plan);
        // every (tile size, configuration) beside its GEMM, side by side on the cores, read back in order
        double[][] beside = new double[FIG14_TILE_BYTES.length][3];
        List<int[]> runs = new java.util.ArrayList<>();
        for (int b = FIG14_TILE_BYTES.length - 1; b >= 0; b--) for (int i = 0; i < 3; i++) runs.add(new int[] {b, i}); // largest GEMM first
        PaperReproduction.progress.step("fig. 14: the all-gather beside GEMMs of " + FIG14_TILE_BYTES.length + " sizes");
        inParallel(runs, r -> beside[r[0]][r[1]] = Simulator.simulate(a.plan(), a.accesses(), configs.get(r[1]), topo, SimConfig.defaults(),
                new Gemm(FIG14_TILES, FIG14_TILE_BYTES[r[0]])).completionNs());
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "The compiler's choice: %s. Alone: UA %.2f us, the choice %.2f us,"
                + " NAP+NAR %.2f us.%n%n", candidate(configs.get(1)), alone[0] / 1000, alone[1] / 1000, alone[2] / 1000));
        sb.append("| tile inputs | GEMM bytes per GPU | tile compute (ns) | UA (us) | UA slowdown | choice (us) | choice slowdown"
                + " | NAP+NAR (us) | NAP+NAR slowdown |\n|---|---|---|---|---|---|---|---|---|\n");
        for (int bi = 0; bi < FIG14_TILE_BYTES.length; bi++) {
            long b = FIG14_TILE_BYTES[bi];
            Gemm g = new Gemm(FIG14_TILES, b);
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.0f |", bytes(b), bytes(g.bytesPerGpu()), g.computeNs(topo.cus().size())));
            for (int i = 0; i < 3; i++) {
                double t = beside[bi][i];
                if (degradesAt[i] < 0 && t > DEGRADED * alone[i]) degradesAt[i] = b;
                sb.append(String.format(Locale.ROOT, " %.2f | %.2fx |", t / 1000, t / alone[i]));
            }
            sb.append('\n');
        }
        String[] at = new String[3];
        for (int i = 0; i < 3; i++) at[i] = degradesAt[i] < 0 ? "none in the sweep" : bytes(degradesAt[i]);
        claims.put("fig14", String.format(Locale.ROOT, "tile inputs of %s for UA, %s for NAP+NAR, %s for nunac's choice", at[0], at[2], at[1]));
        sb.append(String.format(Locale.ROOT, "%nDegrades (more than %.0f %% slower than alone) from tile inputs of: UA %s, the choice %s,"
                + " NAP+NAR %s.%n", (DEGRADED - 1) * 100, at[0], at[1], at[2]));
        return sb.toString();
    }

    /** The shipped workloads (examples/workloads/, docs/e2e.md). */
    static final List<String> FIG15_WORKLOADS = List.of("llama-70b-tp8", "mixtral-8x7b-ep8");

    /** Fig. 15: TTFT and TPOT of the shipped workloads, collectives under UA and under the default compile's choice. */
    String fig15() {
        StringBuilder sb = new StringBuilder("| workload | TTFT UA (us) | TTFT choice (us) | TTFT change | prefill comm speedup"
                + " | TPOT UA (us) | TPOT choice (us) | TPOT change | decode comm speedup |\n|---|---|---|---|---|---|---|---|---|\n");
        StringBuilder ttft = new StringBuilder(), tpot = new StringBuilder();
        double prefill = 0, decode = 0;
        Map<String, EndToEnd.Result> results = new java.util.concurrent.ConcurrentHashMap<>();
        inParallel(FIG15_WORKLOADS, name -> results.put(name, EndToEnd.estimate(
                WorkloadReader.read(examples.resolve("workloads").resolve(name + ".json")), topo, Limits.DEFAULT,
                what -> PaperReproduction.progress.step("fig. 15: " + name + ", " + what))));
        for (String name : FIG15_WORKLOADS) {
            EndToEnd.Result r = results.get(name);
            sb.append("| ").append(name).append(" |");
            for (String phase : List.of("prefill", "decode")) {
                EndToEnd.PhaseResult p = r.phases().stream().filter(x -> x.phase().name().equals(phase)).findFirst().orElseThrow();
                double change = EndToEnd.change(p.totalUaUs(), p.totalChoiceUs());
                double comm = p.commChoiceUs() > 0 ? p.commUaUs() / p.commChoiceUs() : 1.0;
                sb.append(String.format(Locale.ROOT, " %.1f | %.1f | %+.1f %% | %.2fx |", p.totalUaUs(), p.totalChoiceUs(), change, comm));
                StringBuilder into = phase.equals("prefill") ? ttft : tpot;
                into.append(into.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%+.1f %% (%s)", change, name));
                if (phase.equals("prefill")) prefill += Math.log(comm);
                else decode += Math.log(comm);
            }
            sb.append('\n');
        }
        int n = FIG15_WORKLOADS.size();
        claims.put("ttft", ttft.toString());
        claims.put("tpot", tpot.toString());
        claims.put("comm", String.format(Locale.ROOT, "%.2fx (prefill) and %.2fx (decode)", Math.exp(prefill / n), Math.exp(decode / n)));
        sb.append("| paper, geomean of 12 models on 2-64 GPUs (§6.7) | | | -6 % (up to -11 %) | 1.32x | | | -7 % (up to -28 %) | 1.56x |\n");
        sb.append("| paper, Llama-70B, 8-way tensor parallel, 64 GPUs (§6.7) | | | 8 % speedup | | | | 16 % speedup | |\n");
        return sb.toString();
    }

    static String candidate(Placement p) {
        return p.policy().id() + (p.policy().nar && p.granularity() > 1 ? " k=" + p.granularity() : "");
    }

    static String bytes(long b) {
        if (b >= 1L << 20) return b % (1L << 20) == 0 ? b / (1L << 20) + " MiB" : String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        if (b >= 1L << 10 && b % (1L << 10) == 0) return b / (1L << 10) + " KiB";
        return b + " B";
    }
}
