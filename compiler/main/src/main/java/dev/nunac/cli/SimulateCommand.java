package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.emit.OutputFiles;
import dev.nunac.emit.SimulationText;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.cost.Gemm;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nunac simulate PLAN --topo T --policy P --size S}: place, then run the cost model. */
@picocli.CommandLine.Command(name = SimulateCommand.NAME, description = "place a plan and simulate it: completion time, store latencies, utilisation")
final class SimulateCommand implements Command {
    static final String NAME = "simulate";

    @Mixin
    CommonOptions.PlacedPlan placed;

    @Option(names = "--flit", paramLabel = "BYTES", description = "flit size in bytes (default 256)")
    String flit;

    @Option(names = "--csv", paramLabel = "DIR", description = "also write store-latency.csv, utilisation.csv and threadblocks.csv into DIR")
    String csv;

    @Option(names = "--background", paramLabel = "gemm:TILES[:BYTES]", description = "run a GEMM beside the collective on every GPU:"
            + " TILES threadblocks placed by the hardware's dispatch, each loading BYTES of inputs (default 64KiB: a 128 x 128 fp16"
            + " tile), computing, storing its output")
    String background;

    @Mixin
    CommonOptions.Quiet quiet;

    @Override
    public int run(Io io) {
        Path planPath = placed.plan.path(NAME);
        PlacementOptions opts = placed.options();
        SimConfig cfg = SimConfig.defaults();
        String f = flit;
        if (f != null) {
            long v = Sizes.parse(f, "--flit");
            if (v > 1 << 20) throw new UsageException(NAME, "--flit " + f + ": at most 1MiB");
            cfg = cfg.withFlitBytes((int) v);
        }
        Gemm gemm = background == null ? null : background(background);
        CommonOptions.Inputs in = placed.inputs(NAME, planPath, t -> dev.nunac.passes.search.PlacementSearch.granularities(t, opts));
        Topology topo = in.topology();
        Plan p = in.plan();
        dev.nunac.compare.Progress progress = CommonOptions.progress(quiet.quiet, io, "simulate", 2);
        CompileResult r;
        SimResult s;
        try {
            progress.step("placing " + p.threadblockCount() + " threadblocks");
            r = Driver.compile(p, topo, opts, Pipeline.verifyByDefault(), null, null);
            progress.step("simulating");
            s = Driver.simulate(r, cfg, gemm);
        } finally {
            progress.close();
        }
        String dir = csv;
        // The files first: a folder that cannot take them fails the run before any of it is printed.
        if (dir != null) {
            new OutputFiles().add("store-latency.csv", s.histogram().csv(SimulationText.BIN_NS))
                    .add("utilisation.csv", SimulationText.utilisationCsv(s))
                    .add("threadblocks.csv", SimulationText.threadblocksCsv(s)).writeTo(CommonOptions.path(dir, "--csv"));
        }
        io.out().print(SimulationText.summary(r, s, 10));
        if (gemm != null) io.out().println("background  " + gemm.describe(topo.cus().size()));
        return 0;
    }

    /** {@code gemm:TILES[:BYTES]}. */
    static Gemm background(String spec) {
        String[] p = spec.split(":", -1);
        if (p.length < 2 || p.length > 3 || !p[0].equals("gemm")) {
            throw new UsageException(NAME, "--background '" + spec + "': expected gemm:TILES[:BYTES], e.g. gemm:100:1MiB");
        }
        // ASCII digits only, as every number on the command line
        if (!p[1].matches("[0-9]{1,9}")) throw new UsageException(NAME, "--background '" + spec + "': TILES '" + p[1] + "' is not an integer");
        int tiles = Integer.parseInt(p[1]);
        long bytes = p.length == 3 ? Sizes.parse(p[2], "--background") : Gemm.DEFAULT_INPUT_BYTES;
        try {
            return new Gemm(tiles, bytes);
        } catch (IllegalArgumentException e) {
            throw new UsageException(NAME, "--background '" + spec + "': " + e.getMessage());
        }
    }
}
