package dev.nunac.cli;

import dev.nunac.ir.Limits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** Options shared by the commands that read a plan: -D, --limit, --verbose. */
final class CommonOptions {
    private CommonOptions() {}

    static Options planOptions() {
        Options o = new Options();
        o.addOption(Option.builder("D").argName("name=value").hasArgs().valueSeparator('=')
                .desc("override a plan parameter (repeatable), e.g. -D ranks=16").get());
        o.addOption(Option.builder().longOpt("limit").argName("name=value").hasArg()
                .desc("change a resource limit (repeatable), up to its maximum: " + Limits.maxima()).get());
        o.addOption(Option.builder().longOpt("verbose").desc("show internal details of failures").get());
        return o;
    }

    static Map<String, String> defines(CommandLine cl) {
        Properties p = cl.getOptionProperties("D");
        Map<String, String> m = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            String v = p.getProperty(k);
            if (v == null || v.isEmpty()) throw new UsageException(null, "-D " + k + " needs a value: -D " + k + "=VALUE");
            m.put(k, v);
        }
        return m;
    }

    static Limits limits(CommandLine cl) {
        Limits l = Limits.DEFAULT;
        String[] vals = cl.getOptionValues("limit");
        if (vals == null) return l;
        for (String s : vals) {
            int eq = s.indexOf('=');
            if (eq <= 0) throw new UsageException(null, "--limit expects NAME=VALUE, got '" + s + "'");
            long v;
            try {
                // ASCII digits only, as docs/errors.md says: no plus, no spaces (a minus is let through to say "must be positive").
                String digits = s.substring(eq + 1);
                if (!dev.nunac.diag.Text.isAsciiInteger(digits)) throw new NumberFormatException();
                v = Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw new UsageException(null, "--limit " + s + ": not an integer");
            }
            if (v < 1) throw new UsageException(null, "--limit " + s + ": must be positive");
            try {
                l = l.with(s.substring(0, eq), v);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                throw new UsageException(null, m.startsWith("at most ") ? "--limit " + s + ": " + m : "--limit: " + m);
            }
        }
        return l;
    }

    /** The options of commands that place a plan on a topology: plan, topology and placement options. */
    /** {@code --quiet}, for the commands that show progress. */
    static void addQuietOption(Options o) {
        o.addOption(Option.builder("q").longOpt("quiet").desc("show no progress on standard error (shown only when it is a terminal)").get());
    }

    /**
     * Progress over {@code total} steps: shown when this process's own standard error is the
     * command's and a terminal, and not --quiet (never for a command run in-process with other streams).
     */
    static dev.nunac.compare.Progress progress(CommandLine cl, Io io, String what, int total) {
        boolean terminal = io.err() == System.err && dev.nunac.compare.Progress.terminal();
        return dev.nunac.compare.Progress.start(io.err(), dev.nunac.compare.Progress.shown(terminal, cl.hasOption("quiet")), what, total);
    }

    static Options placedPlanOptions() {
        Options o = planOptions();
        addTopologyOptions(o);
        addPlacementOptions(o);
        return o;
    }

    static void addTopologyOptions(Options o) {
        o.addOption(Option.builder().longOpt("topo").hasArg().argName("TOPOLOGY")
                .desc("topology: a bundled name (nunac topo list) or a spec file").get());
        o.addOption(Option.builder().longOpt("topo-override").hasArg().argName("FILE")
                .desc("merge measured values (JSON) over the topology spec").get());
    }

    /** --policy, --nar, --size: read back by {@link #placementOptions}. */
    static void addPlacementOptions(Options o) {
        o.addOption(Option.builder().longOpt("policy").hasArg().argName("P")
                .desc("placement policy: auto (default: search every policy and granularity and keep the fastest, never"
                        + " slower than ua), one of " + dev.nunac.passes.place.Policy.ids()
                        + " (nap+nar is the paper's Algorithm 1 as published), or a comma-separated list to search").get());
        addNarOption(o);
        o.addOption(Option.builder().longOpt("size").hasArg().argName("BYTES")
                .desc("collective size: bytes of the largest per-rank buffer, e.g. 1048576, 100KB, 1MiB (default 1MiB)").get());
        o.addOption(Option.builder().longOpt("layout").hasArg().argName("natural|packed")
                .desc("natural (default): the collective's input and output keep the caller's layout; packed: NUNA-aware placement may"
                        + " repack chunks smaller than a page in every buffer, as the paper assumes (for a library that stages data in"
                        + " buffers of its own)").get());
    }

    static dev.nunac.topology.Topology topology(CommandLine cl, String command) {
        String t = cl.getOptionValue("topo");
        if (t == null) throw new UsageException(command, "missing --topo TOPOLOGY (bundled: "
                + String.join(", ", dev.nunac.topology.TopologyResolver.bundledNames()) + ")");
        String ov = cl.getOptionValue("topo-override");
        return dev.nunac.topology.TopologyResolver.resolve(t, ov == null ? null : path(ov, "--topo-override"));
    }

    static void addNarOption(Options o) {
        o.addOption(Option.builder().longOpt("nar").hasArg().argName("N|auto|off")
                .desc("NAR granularity: a granularity the topology supports, off for hashing, or auto (default):"
                        + " try every granularity and keep the fastest").get());
    }

    static dev.nunac.passes.place.PlacementOptions placementOptions(CommandLine cl) {
        java.util.Set<dev.nunac.passes.place.Policy> policies = policies(cl.getOptionValue("policy"), "--policy");
        int nar = dev.nunac.passes.place.PlacementOptions.NAR_DEFAULT;
        String n = cl.getOptionValue("nar");
        if (n != null) {
            if (n.equals("off")) nar = dev.nunac.passes.place.PlacementOptions.NAR_OFF;
            else if (!n.equals("auto") && !n.equals("default")) {
                try {
                    if (!dev.nunac.diag.Text.isAsciiInteger(n)) throw new NumberFormatException();
                    nar = Integer.parseInt(n);
                } catch (NumberFormatException e) {
                    throw new UsageException(null, "--nar expects a granularity, 'auto' or 'off', got '" + n + "'");
                }
                if (nar < 1) throw new UsageException(null, "--nar expects a positive granularity, 'auto' or 'off', got '" + n + "'");
            }
        }
        long size = dev.nunac.passes.place.PlacementOptions.DEFAULT_SIZE;
        String s = cl.getOptionValue("size");
        if (s != null) size = Sizes.parse(s, "--size");
        String layout = cl.getOptionValue("layout", "natural");
        if (!layout.equals("natural") && !layout.equals("packed")) {
            throw new UsageException(null, "--layout expects natural or packed, got '" + layout + "'");
        }
        return new dev.nunac.passes.place.PlacementOptions(policies, nar, size, layout.equals("packed"), limits(cl).maxPages());
    }

    /** A policy list: {@code auto} (or nothing) for all of them, else policy ids separated by commas. */
    static java.util.Set<dev.nunac.passes.place.Policy> policies(String list, String option) {
        if (list == null || list.trim().equals("auto")) return dev.nunac.passes.place.Policy.all();
        java.util.Set<dev.nunac.passes.place.Policy> out = java.util.EnumSet.noneOf(dev.nunac.passes.place.Policy.class);
        for (String p : list.split(",")) {
            if (p.isBlank()) continue;
            if (p.trim().equals("auto")) return dev.nunac.passes.place.Policy.all();
            out.add(dev.nunac.passes.place.Policy.parse(p).orElseThrow(() -> new UsageException(null, option + ": unknown policy '"
                    + p.trim() + "' (known: auto, " + dev.nunac.passes.place.Policy.ids() + ")")));
        }
        if (out.isEmpty()) throw new UsageException(null, option + ": no policy given (known: auto, " + dev.nunac.passes.place.Policy.ids() + ")");
        return out;
    }

    /** Reads a plan with the command line's -D overrides and --limit bounds. */
    /** A command's two inputs and the time each took to load. */
    record Inputs(dev.nunac.topology.Topology topology, dev.nunac.ir.Plan plan, long topologyNanos, long planNanos) {}

    /**
     * Loads the topology (--topo) on a second thread while the plan parses: both are pure and
     * independent. A bad topology is reported before a bad plan, as if loaded first; so is an
     * option the topology refuses ({@code check}, e.g. a --nar granularity it lacks).
     */
    static Inputs inputs(CommandLine cl, String command, Path planPath, java.util.function.Consumer<dev.nunac.topology.Topology> check) {
        if (cl.getOptionValue("topo") == null) topology(cl, command); // the usage error, before any work
        var topo = dev.nunac.driver.Parallel.start("nunac-topology", () -> {
            long t0 = System.nanoTime();
            var t = topology(cl, command);
            long nanos = System.nanoTime() - t0;
            check.accept(t);
            return java.util.Map.entry(t, nanos);
        });
        long t0 = System.nanoTime();
        dev.nunac.ir.Plan plan = null;
        RuntimeException planError = null;
        try {
            plan = loadPlan(cl, planPath);
        } catch (RuntimeException e) {
            planError = e;
        }
        long planNanos = System.nanoTime() - t0;
        var t = dev.nunac.driver.Parallel.join(topo);
        if (planError != null) throw planError;
        return new Inputs(t.getKey(), plan, t.getValue(), planNanos);
    }

    static dev.nunac.ir.Plan loadPlan(CommandLine cl, Path path) {
        return dev.nunac.driver.PlanLoader.load(path, defines(cl), limits(cl));
    }

    /** The single PLAN argument of a command. */
    static Path onePlan(CommandLine cl, String command) {
        List<String> args = cl.getArgList();
        if (args.isEmpty()) throw new UsageException(command, "missing PLAN argument");
        if (args.size() > 1) throw new UsageException(command, "expected one PLAN, got " + args.size() + ": " + String.join(" ", args));
        return path(args.get(0), "PLAN");
    }

    /** A path given on the command line; one the file system cannot name is a usage error, not a crash. */
    static Path path(String arg, String what) {
        // Path.of("") is the working folder: an empty argument is a mistake, not a request for it.
        if (arg.isEmpty()) throw new UsageException(null, what + ": an empty path names no file or folder");
        try {
            return Path.of(arg);
        } catch (java.nio.file.InvalidPathException e) {
            throw new UsageException(null, what + ": not a valid path (" + e.getReason() + ")");
        }
    }
}
