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
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code nunac sweep SPEC [-o DIR] [--shard i/n]}: the points of a sweep spec, one result file
 * each; {@code nunac sweep merge DIR [-o OUT]}: their CSV and markdown tables (docs/sweep.md).
 */
final class SweepCommand implements Command {
    static final String NAME = "sweep";
    static final String DEFAULT_DIR = "sweep-results";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "run a sweep spec's points (plans x topologies x sizes x policies x GPUs), or merge them: sweep merge DIR";
    }

    @Override
    public String usage() {
        return "sweep SPEC [-o DIR] [--shard i/n] [--quiet] | sweep merge DIR [-o OUT] [--allow-missing]";
    }

    @Override
    public Options options() {
        Options o = new Options();
        o.addOption(Option.builder("o").longOpt("output").hasArg().argName("DIR")
                .desc("sweep: the folder for the point files (default " + DEFAULT_DIR + "); merge: the folder for sweep.csv and"
                        + " sweep.md (default the sweep folder)").get());
        o.addOption(Option.builder().longOpt("shard").hasArg().argName("i/n")
                .desc("run only the i-th of n disjoint parts of the sweep, counted from 0 as SLURM_ARRAY_TASK_ID and"
                        + " JOB_COMPLETION_INDEX are (default 0/1, all points)").get());
        o.addOption(Option.builder().longOpt("allow-missing").desc("merge: merge the points there are when some have no result yet").get());
        o.addOption(Option.builder("q").longOpt("quiet").desc("show no progress on standard error (a line kept up to date on a"
                + " terminal, one line per point elsewhere)").get());
        o.addOption(Option.builder().longOpt("verbose").desc("show internal details of failures").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        List<String> args = cl.getArgList();
        if (!args.isEmpty() && args.get(0).equals("merge")) return merge(cl, io, args.subList(1, args.size()));
        if (args.isEmpty()) throw new UsageException(NAME, "missing SPEC argument (or: nunac sweep merge DIR)");
        if (args.size() > 1) throw new UsageException(NAME, "expected one SPEC, got " + args.size() + ": " + String.join(" ", args));
        if (cl.hasOption("allow-missing")) throw new UsageException(NAME, "--allow-missing is an option of sweep merge");
        Shard shard = Shard.ALL;
        if (cl.hasOption("shard")) {
            String[] why = new String[1];
            shard = Shard.parse(cl.getOptionValue("shard"), why);
            if (shard == null) throw new UsageException(NAME, "--shard " + why[0]);
        }
        Path dir = CommonOptions.path(cl.getOptionValue("o", DEFAULT_DIR), "-o");
        SweepSpec spec = SpecReader.read(CommonOptions.path(args.get(0), "SPEC"));
        SweepRun.Outcome o;
        boolean quiet = cl.hasOption("quiet");
        boolean terminal = io.err() == System.err && Progress.terminal();
        // the count of points to compute is known once the run has seen which are done
        Progress[] progress = {Progress.NONE};
        try {
            o = SweepRun.run(spec, dir, shard, (done, total, p) -> {
                if (done == 0) progress[0] = Progress.start(io.err(), Progress.shown(terminal, quiet), "sweep", total);
                // a job's log is not a terminal: there, one line per point says how far the shard is
                if (terminal) progress[0].step(p.id());
                else if (!quiet) io.err().printf(Locale.ROOT, "nunac: sweep %d/%d: %s%n", done + 1, total, p.id());
            });
        } finally {
            progress[0].close();
        }
        io.out().printf(Locale.ROOT, "nunac: sweep%s: %d of %d points, %d computed, %d already done; results in %s%n",
                shard.count() > 1 ? " shard " + shard : "", o.inShard(), o.points(), o.computed(), o.skipped(), dir.resolve(SweepRun.POINTS));
        return Cli.OK;
    }

    private static int merge(CommandLine cl, Io io, List<String> args) {
        if (args.isEmpty()) throw new UsageException(NAME, "sweep merge: missing DIR, the sweep's folder");
        if (args.size() > 1) throw new UsageException(NAME, "sweep merge: expected one DIR, got " + args.size() + ": " + String.join(" ", args));
        if (cl.hasOption("shard")) throw new UsageException(NAME, "--shard is an option of sweep SPEC, not of sweep merge");
        Path dir = CommonOptions.path(args.get(0), "DIR");
        SweepMerge.Merged m = SweepMerge.merge(dir, cl.hasOption("allow-missing"));
        Path out = CommonOptions.path(cl.getOptionValue("o", args.get(0)), "-o");
        List<Path> written = m.files().writeTo(out);
        if (m.missing() > 0) io.err().println("nunac: warning: " + m.missing() + " of " + m.points() + " points have no result and are left out");
        io.out().println("nunac: sweep merge: " + (m.points() - m.missing()) + " points; wrote "
                + String.join(", ", written.stream().map(Path::toString).toList()));
        return Cli.OK;
    }
}
