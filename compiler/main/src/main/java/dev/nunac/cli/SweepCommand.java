package dev.nunac.cli;

import dev.nunac.compare.Progress;
import dev.nunac.sweep.Shard;
import dev.nunac.sweep.SpecReader;
import dev.nunac.sweep.SweepMerge;
import dev.nunac.sweep.SweepRun;
import dev.nunac.sweep.SweepSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.ArrayList;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code nunac sweep SPEC [-o DIR] [--shard i/n] [--jobs N]}: the points of a sweep spec, one result file
 * each; {@code nunac sweep merge DIR [-o OUT]}: their CSV and markdown tables (docs/sweep.md).
 */
@picocli.CommandLine.Command(name = SweepCommand.NAME, description = "run a sweep spec's points (plans x topologies x sizes x"
        + " policies x GPUs), or merge them: sweep merge DIR")
final class SweepCommand implements Command {
    static final String NAME = "sweep";
    static final String DEFAULT_DIR = "sweep-results";

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "sweep: the folder for the point files (default "
            + DEFAULT_DIR + "); merge: the folder for sweep.csv and sweep.md (default the sweep folder)")
    String output;

    @Option(names = "--shard", paramLabel = "i/n", description = "run only the i-th of n disjoint parts of the sweep, counted from 0 as"
            + " SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are (default 0/1, all points)")
    String shard;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "compute N points at once, each on a thread of its own, the"
            + " largest first (default 1; 0: one per core); each job holds its point's placements, so the heap must hold N points")
    Integer jobs;

    @Option(names = "--allow-missing", description = "merge: merge the points there are when some have no result yet")
    boolean allowMissing;

    @Option(names = {"-q", "--quiet"}, description = "show no progress on standard error (a line kept up to date on a terminal, one"
            + " line per point elsewhere)")
    boolean quiet;

    @Parameters(paramLabel = "SPEC | merge DIR", description = "the sweep spec (docs/sweep.md), or merge and the sweep's folder")
    List<String> args = new ArrayList<>();

    @Override
    public int run(Io io) {
        if (!args.isEmpty() && args.get(0).equals("merge")) return merge(io, args.subList(1, args.size()));
        if (args.isEmpty()) throw new UsageException(NAME, "missing SPEC argument (or: nunac sweep merge DIR)");
        if (args.size() > 1) throw new UsageException(NAME, "expected one SPEC, got " + args.size() + ": " + String.join(" ", args));
        if (allowMissing) throw new UsageException(NAME, "--allow-missing is an option of sweep merge");
        Shard part = Shard.ALL;
        if (shard != null) {
            String[] why = new String[1];
            part = Shard.parse(shard, why);
            if (part == null) throw new UsageException(NAME, "--shard " + why[0]);
        }
        int parallel = jobs == null ? 1 : jobs == 0 ? Runtime.getRuntime().availableProcessors() : jobs;
        if (jobs != null && (jobs < 0 || jobs > SweepRun.MAX_JOBS)) {
            throw new UsageException(NAME, "--jobs " + jobs + ": expected 0 (one per core) to " + SweepRun.MAX_JOBS);
        }
        parallel = Math.min(parallel, SweepRun.MAX_JOBS);
        Path dir = CommonOptions.path(output == null ? DEFAULT_DIR : output, "-o");
        SweepSpec spec = SpecReader.read(CommonOptions.path(args.get(0), "SPEC"));
        SweepRun.Outcome o;
        boolean terminal = io.err() == System.err && Progress.terminal();
        // the count of points to compute is known once the run has seen which are done
        Progress[] progress = {Progress.NONE};
        try {
            o = SweepRun.run(spec, dir, part, parallel, (done, total, p) -> {
                if (done == 0) progress[0] = Progress.start(io.err(), Progress.shown(terminal, quiet), "sweep", total);
                // a job's log is not a terminal: there, one line per point says how far the shard is
                if (terminal) progress[0].step(p.id());
                else if (!quiet) io.err().printf(Locale.ROOT, "nunac: sweep %d/%d: %s%n", done + 1, total, p.id());
            });
        } finally {
            progress[0].close();
        }
        io.out().printf(Locale.ROOT, "nunac: sweep%s: %d of %d points, %d computed, %d already done; results in %s%n",
                part.count() > 1 ? " shard " + part : "", o.inShard(), o.points(), o.computed(), o.skipped(), dir.resolve(SweepRun.POINTS));
        return Cli.OK;
    }

    private int merge(Io io, List<String> args) {
        if (args.isEmpty()) throw new UsageException(NAME, "sweep merge: missing DIR, the sweep's folder");
        if (args.size() > 1) throw new UsageException(NAME, "sweep merge: expected one DIR, got " + args.size() + ": " + String.join(" ", args));
        if (shard != null) throw new UsageException(NAME, "--shard is an option of sweep SPEC, not of sweep merge");
        if (jobs != null) throw new UsageException(NAME, "--jobs is an option of sweep SPEC, not of sweep merge");
        Path dir = CommonOptions.path(args.get(0), "DIR");
        SweepMerge.Merged m = SweepMerge.merge(dir, allowMissing);
        Path out = CommonOptions.path(output == null ? args.get(0) : output, "-o");
        List<Path> written = m.files().writeTo(out);
        if (m.missing() > 0) io.err().println("nunac: warning: " + m.missing() + " of " + m.points() + " points have no result and are left out");
        io.out().println("nunac: sweep merge: " + (m.points() - m.missing()) + " points; wrote "
                + String.join(", ", written.stream().map(Path::toString).toList()));
        return Cli.OK;
    }
}
