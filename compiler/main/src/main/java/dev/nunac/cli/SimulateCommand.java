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
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac simulate PLAN --topo T --policy P --size S}: place, then run the cost model. */
final class SimulateCommand implements Command {
    static final String NAME = "simulate";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "place a plan and simulate it: completion time, store latencies, utilisation";
    }

    @Override
    public String usage() {
        return "simulate PLAN --topo TOPOLOGY [-D name=value]... [--policy P] [--size BYTES] [--nar N|auto|off] [--flit BYTES] [--background gemm:TILES[:BYTES]] [--csv DIR] [--quiet]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.placedPlanOptions();
        o.addOption(Option.builder().longOpt("flit").hasArg().argName("BYTES").desc("flit size in bytes (default 256)").get());
        o.addOption(Option.builder().longOpt("csv").hasArg().argName("DIR")
                .desc("also write store-latency.csv, utilisation.csv and threadblocks.csv into DIR").get());
        o.addOption(Option.builder().longOpt("background").hasArg().argName("gemm:TILES[:BYTES]")
                .desc("run a GEMM beside the collective on every GPU: TILES threadblocks placed by the hardware's dispatch,"
                        + " each loading BYTES of inputs (default 64KiB: a 128 x 128 fp16 tile), computing, storing its output").get());
        CommonOptions.addQuietOption(o);
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, NAME);
        PlacementOptions opts = CommonOptions.placementOptions(cl);
        SimConfig cfg = SimConfig.defaults();
        String f = cl.getOptionValue("flit");
        if (f != null) {
            long v = Sizes.parse(f, "--flit");
            if (v > 1 << 20) throw new UsageException(NAME, "--flit " + f + ": at most 1MiB");
            cfg = cfg.withFlitBytes((int) v);
        }
        Gemm background = cl.hasOption("background") ? background(cl.getOptionValue("background")) : null;
        CommonOptions.Inputs in = CommonOptions.inputs(cl, NAME, planPath, t -> dev.nunac.passes.search.PlacementSearch.granularities(t, opts));
        Topology topo = in.topology();
        Plan plan = in.plan();
        dev.nunac.compare.Progress progress = CommonOptions.progress(cl, io, "simulate", 2);
        CompileResult r;
        SimResult s;
        try {
            progress.step("placing " + plan.threadblockCount() + " threadblocks");
            r = Driver.compile(plan, topo, opts, Pipeline.verifyByDefault(), null, null);
            progress.step("simulating");
            s = Driver.simulate(r, cfg, background);
        } finally {
            progress.close();
        }
        String dir = cl.getOptionValue("csv");
        // The files first: a folder that cannot take them fails the run before any of it is printed.
        if (dir != null) {
            new OutputFiles().add("store-latency.csv", s.histogram().csv(SimulationText.BIN_NS))
                    .add("utilisation.csv", SimulationText.utilisationCsv(s))
                    .add("threadblocks.csv", SimulationText.threadblocksCsv(s)).writeTo(CommonOptions.path(dir, "--csv"));
        }
        io.out().print(SimulationText.summary(r, s, 10));
        if (background != null) io.out().println("background  " + background.describe(topo.cus().size()));
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
