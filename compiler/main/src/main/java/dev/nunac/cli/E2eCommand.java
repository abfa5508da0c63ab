package dev.nunac.cli;

import dev.nunac.e2e.EndToEnd;
import dev.nunac.e2e.Workload;
import dev.nunac.e2e.WorkloadReader;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/**
 * {@code nunac e2e WORKLOAD --topo T}: TTFT and TPOT of an inference workload with its
 * collectives under UA and under the default compile's choice (docs/e2e.md).
 */
final class E2eCommand implements Command {
    static final String NAME = "e2e";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "estimate an inference workload's TTFT and TPOT with its collectives under ua and under nunac's choice";
    }

    @Override
    public String usage() {
        return "e2e WORKLOAD --topo TOPOLOGY [--limit name=value]... [--quiet]";
    }

    @Override
    public Options options() {
        Options o = new Options();
        CommonOptions.addTopologyOptions(o);
        o.addOption(org.apache.commons.cli.Option.builder().longOpt("limit").argName("name=value").hasArg()
                .desc("change a resource limit of the workload's plans (repeatable)").get());
        CommonOptions.addQuietOption(o);
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        List<String> args = cl.getArgList();
        if (args.isEmpty()) throw new UsageException(NAME, "missing WORKLOAD argument");
        if (args.size() > 1) throw new UsageException(NAME, "expected one WORKLOAD, got " + args.size() + ": " + String.join(" ", args));
        var limits = CommonOptions.limits(cl);
        var topo = CommonOptions.topology(cl, NAME);
        Path file = CommonOptions.path(args.get(0), "WORKLOAD");
        Workload w = WorkloadReader.read(file);
        int total = w.phases().stream().mapToInt(p -> p.collectives().size()).sum();
        EndToEnd.Result r;
        try (dev.nunac.compare.Progress progress = CommonOptions.progress(cl, io, "e2e", total)) {
            r = EndToEnd.estimate(w, topo, limits, progress::step);
        }
        io.out().print(EndToEnd.text(r));
        return 0;
    }
}
