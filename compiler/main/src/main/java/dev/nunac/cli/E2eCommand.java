package dev.nunac.cli;

import dev.nunac.e2e.EndToEnd;
import dev.nunac.e2e.Workload;
import dev.nunac.e2e.WorkloadReader;
import java.nio.file.Path;
import java.util.List;
import java.util.ArrayList;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nunac e2e WORKLOAD --topo T}: TTFT and TPOT of an inference workload with its
 * collectives under UA and under the default compile's choice (docs/e2e.md).
 */
@picocli.CommandLine.Command(name = E2eCommand.NAME, description = "estimate an inference workload's TTFT and TPOT with its"
        + " collectives under ua and under nunac's choice")
final class E2eCommand implements Command {
    static final String NAME = "e2e";

    @Mixin
    CommonOptions.TopologyOptions topology;

    @Mixin
    CommonOptions.LimitOption limit;

    @Mixin
    CommonOptions.Quiet quiet;

    @Parameters(paramLabel = "WORKLOAD", description = "the workload file (docs/e2e.md)")
    List<String> args = new ArrayList<>();

    @Override
    public int run(Io io) {
        if (args.isEmpty()) throw new UsageException(NAME, "missing WORKLOAD argument");
        if (args.size() > 1) throw new UsageException(NAME, "expected one WORKLOAD, got " + args.size() + ": " + String.join(" ", args));
        var limits = limit.limits();
        var topo = topology.load(NAME);
        Path file = CommonOptions.path(args.get(0), "WORKLOAD");
        Workload w = WorkloadReader.read(file);
        int total = w.phases().stream().mapToInt(p -> p.collectives().size()).sum();
        EndToEnd.Result r;
        try (dev.nunac.compare.Progress progress = CommonOptions.progress(quiet.quiet, io, "e2e", total)) {
            r = EndToEnd.estimate(w, topo, limits, progress::step);
        }
        io.out().print(EndToEnd.text(r));
        return 0;
    }
}
