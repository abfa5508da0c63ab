package dev.nunac.cli;

import dev.nunac.ir.Limits;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options shared by several commands, as picocli mixins (a command's {@code @Mixin} field adds
 * them to its options and its help), and the checks that turn their text into values.
 */
final class CommonOptions {
    private CommonOptions() {}

    /** {@code --quiet}, for the commands that show progress. */
    static final class Quiet {
        @Option(names = {"-q", "--quiet"}, description = "show no progress on standard error (shown only when it is a terminal)")
        boolean quiet;
    }

    /** {@code --limit}, alone (e2e) or with the plan options. */
    static final class LimitOption {
        @Option(names = "--limit", paramLabel = "name=value",
                description = "change a resource limit (repeatable), up to its maximum: ${bundle:list.limits}")
        List<String> values = new ArrayList<>();

        Limits limits() {
            Limits l = Limits.DEFAULT;
            for (String s : values) {
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
    }

    /** -D, --limit and the PLAN argument: what every command that reads a plan takes. */
    static final class PlanOptions {
        // "-D name" without a value keeps the empty value, refused below with the fix
        @Option(names = "-D", paramLabel = "name=value", mapFallbackValue = "",
                description = "override a plan parameter (repeatable), e.g. -D ranks=16")
        Map<String, String> defines = new TreeMap<>();

        @Mixin
        LimitOption limit;

        Map<String, String> defines() {
            for (var e : defines.entrySet()) {
                if (e.getKey().isEmpty()) throw new UsageException(null, "-D expects name=value, got '=" + e.getValue() + "'");
                if (e.getValue().isEmpty()) {
                    throw new UsageException(null, "-D " + e.getKey() + " needs a value: -D " + e.getKey() + "=VALUE");
                }
            }
            return new TreeMap<>(defines);
        }

        Limits limits() {
            return limit.limits();
        }

        dev.nunac.ir.Plan load(Path path) {
            return dev.nunac.driver.PlanLoader.load(path, defines(), limits());
        }

        /** Every command that takes -D reads one plan, named by its one argument. */
        @picocli.CommandLine.Parameters(paramLabel = "PLAN", description = "the plan: .msccl, MSCCL-IR .xml or MSCCL++ .json")
        java.util.List<String> args = new java.util.ArrayList<>();

        /** The plan's path: exactly one argument, else a usage error of {@code command}. */
        Path path(String command) {
            return onePlan(args, command);
        }
    }

    /** The plan, the topology and the placement options: what every command that places a plan takes. */
    static final class PlacedPlan {
        @Mixin
        PlanOptions plan;

        @Mixin
        TopologyOptions topology;

        @Mixin
        Placement placement;

        PlacementOptions options() {
            return placement.options(plan.limits());
        }

        /** The plan and the topology, read side by side ({@link CommonOptions#inputs}). */
        Inputs inputs(String command, Path planPath, java.util.function.Consumer<dev.nunac.topology.Topology> check) {
            return CommonOptions.inputs(plan, topology, command, planPath, check);
        }
    }

    /** --topo, --topo-override. */
    static final class TopologyOptions {
        @Option(names = "--topo", paramLabel = "TOPOLOGY", description = "topology: a bundled name (nunac topo list) or a spec file")
        String topo;

        @Option(names = "--topo-override", paramLabel = "FILE", description = "merge measured values (JSON) over the topology spec")
        String override;

        /** The missing --topo is a usage error before any work. */
        void require(String command) {
            if (topo == null) throw new UsageException(command, "missing --topo TOPOLOGY (bundled: "
                    + String.join(", ", dev.nunac.topology.TopologyResolver.bundledNames()) + ")");
        }

        dev.nunac.topology.Topology load(String command) {
            require(command);
            return dev.nunac.topology.TopologyResolver.resolve(topo, override == null ? null : path(override, "--topo-override"));
        }
    }

    /** --nar, alone (compare) or with the other placement options. */
    static final class NarOption {
        @Option(names = "--nar", paramLabel = "N|auto|off", description = "NAR granularity: a granularity the topology supports,"
                + " off for hashing, or auto (default): try every granularity and keep the fastest")
        String nar;

        int nar() {
            if (nar == null || nar.equals("auto") || nar.equals("default")) return PlacementOptions.NAR_DEFAULT;
            if (nar.equals("off")) return PlacementOptions.NAR_OFF;
            int n;
            try {
                if (!dev.nunac.diag.Text.isAsciiInteger(nar)) throw new NumberFormatException();
                n = Integer.parseInt(nar);
            } catch (NumberFormatException e) {
                throw new UsageException(null, "--nar expects a granularity, 'auto' or 'off', got '" + nar + "'");
            }
            if (n < 1) throw new UsageException(null, "--nar expects a positive granularity, 'auto' or 'off', got '" + nar + "'");
            return n;
        }
    }

    /** --policy, --nar, --size, --layout: read back by {@link #options}. */
    static final class Placement {
        @Option(names = "--policy", paramLabel = "P", description = "placement policy: auto (default: search every policy and"
                + " granularity and keep the fastest, never slower than ua), one of ${bundle:list.policies} (nap+nar is the"
                + " paper's Algorithm 1 as published), or a comma-separated list to search")
        String policy;

        @Mixin
        NarOption nar;

        @Option(names = "--size", paramLabel = "BYTES",
                description = "collective size: bytes of the largest per-rank buffer, e.g. 1048576, 100KB, 1MiB (default 1MiB)")
        String size;

        @Option(names = "--layout", paramLabel = "natural|packed", description = "natural (default): the collective's input and"
                + " output keep the caller's layout; packed: NUNA-aware placement may repack chunks smaller than a page in every"
                + " buffer, as the paper assumes (for a library that stages data in buffers of its own)")
        String layout;

        PlacementOptions options(Limits limits) {
            Set<Policy> policies = policies(policy, "--policy");
            int n = nar.nar();
            long bytes = size == null ? PlacementOptions.DEFAULT_SIZE : Sizes.parse(size, "--size");
            String l = layout == null ? "natural" : layout;
            if (!l.equals("natural") && !l.equals("packed")) {
                throw new UsageException(null, "--layout expects natural or packed, got '" + l + "'");
            }
            return new PlacementOptions(policies, n, bytes, l.equals("packed"), limits.maxPages());
        }
    }

    /** A policy list: {@code auto} (or nothing) for all of them, else policy ids separated by commas. */
    static Set<Policy> policies(String list, String option) {
        if (list == null || list.trim().equals("auto")) return Policy.all();
        Set<Policy> out = EnumSet.noneOf(Policy.class);
        for (String p : list.split(",")) {
            if (p.isBlank()) continue;
            if (p.trim().equals("auto")) return Policy.all();
            out.add(Policy.parse(p).orElseThrow(() -> new UsageException(null, option + ": unknown policy '"
                    + p.trim() + "' (known: auto, " + Policy.ids() + ")")));
        }
        if (out.isEmpty()) throw new UsageException(null, option + ": no policy given (known: auto, " + Policy.ids() + ")");
        return out;
    }

    /**
     * Progress over {@code total} steps: shown when this process's own standard error is the
     * command's and a terminal, and not --quiet (never for a command run in-process with other streams).
     */
    static dev.nunac.compare.Progress progress(boolean quiet, Io io, String what, int total) {
        boolean terminal = io.err() == System.err && dev.nunac.compare.Progress.terminal();
        return dev.nunac.compare.Progress.start(io.err(), dev.nunac.compare.Progress.shown(terminal, quiet), what, total);
    }

    /** A command's two inputs and the time each took to load. */
    record Inputs(dev.nunac.topology.Topology topology, dev.nunac.ir.Plan plan, long topologyNanos, long planNanos) {}

    /**
     * Loads the topology (--topo) on a second thread while the plan parses: both are pure and
     * independent. A bad topology is reported before a bad plan, as if loaded first; so is an
     * option the topology refuses ({@code check}, e.g. a --nar granularity it lacks).
     */
    static Inputs inputs(PlanOptions plan, TopologyOptions topology, String command, Path planPath,
                         java.util.function.Consumer<dev.nunac.topology.Topology> check) {
        topology.require(command); // the usage error, before any work
        var topo = dev.nunac.driver.Parallel.start("nunac-topology", () -> {
            long t0 = System.nanoTime();
            var t = topology.load(command);
            long nanos = System.nanoTime() - t0;
            check.accept(t);
            return Map.entry(t, nanos);
        });
        long t0 = System.nanoTime();
        dev.nunac.ir.Plan p = null;
        RuntimeException planError = null;
        try {
            p = plan.load(planPath);
        } catch (RuntimeException e) {
            planError = e;
        }
        long planNanos = System.nanoTime() - t0;
        var t = dev.nunac.driver.Parallel.join(topo);
        if (planError != null) throw planError;
        return new Inputs(t.getKey(), p, t.getValue(), planNanos);
    }

    /** The single PLAN argument of a command. */
    static Path onePlan(List<String> args, String command) {
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
