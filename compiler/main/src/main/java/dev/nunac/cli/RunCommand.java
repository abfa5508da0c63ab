package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.emit.LaunchTable;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.runtime.NunaRuntime;
import dev.nunac.runtime.RuntimeFailure;
import dev.nunac.runtime.Session;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code nunac run PLAN --topo T [--backend B]}: compiles the plan, hands its launch table to the
 * runtime shim, launches, verifies the data and prints the launch report. Exit 4 when the
 * runtime refuses or fails (backend unavailable, placement does not fit, timeout, wrong data).
 */
final class RunCommand implements Command {
    static final String NAME = "run";
    static final int RUNTIME_ERROR = 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "compile a plan, run it on the runtime shim, verify the data and print the launch report";
    }

    @Override
    public String usage() {
        return "run PLAN --topo TOPOLOGY [--backend auto|host|cuda|hip] [--runtime-options \"k=v ...\"] [-D name=value]... [--size BYTES] [--policy P]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.placedPlanOptions();
        o.addOption(Option.builder().longOpt("backend").hasArg().argName("B")
                .desc("runtime backend: auto (cuda, then hip, then host), host, cuda, hip (default auto)").get());
        o.addOption(Option.builder().longOpt("runtime-options").hasArg().argName("OPTS")
                .desc("runtime options, space-separated key=value (docs/runtime.md), e.g. \"timeout_ms=5000\"").get());
        o.addOption(Option.builder().longOpt("repeat").hasArg().argName("N")
                .desc("also time N pinned and N plain launches and print their medians").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, NAME);
        PlacementOptions opts = CommonOptions.placementOptions(cl);
        String backend = cl.getOptionValue("backend", "auto").toLowerCase(Locale.ROOT);
        if (!NunaRuntime.BACKENDS.contains(backend)) {
            throw new UsageException(NAME, "--backend: unknown backend '" + backend + "' (auto, host, cuda, hip)");
        }
        int repeat = 0;
        if (cl.hasOption("repeat")) {
            try {
                String n = cl.getOptionValue("repeat");
                repeat = dev.nunac.diag.Text.isAsciiInteger(n) ? Integer.parseInt(n) : -1;
            } catch (NumberFormatException e) {
                repeat = -1;
            }
            if (repeat < 1 || repeat > 1_000_000) throw new UsageException(NAME, "--repeat: expected a count in 1..1000000");
        }
        CommonOptions.Inputs in = CommonOptions.inputs(cl, NAME, planPath, t -> dev.nunac.passes.search.PlacementSearch.granularities(t, opts));
        Topology topo = in.topology();
        Plan plan = in.plan();
        CompileResult r = Driver.compile(plan, topo, opts, Pipeline.verifyByDefault(), null, null);
        String table = LaunchTable.emit(r);
        if (!NunaRuntime.isAvailable()) {
            io.err().println("nunac run: the native runtime is unavailable: " + NunaRuntime.unavailabilityCause().getMessage());
            return RUNTIME_ERROR;
        }
        Session s;
        try {
            s = NunaRuntime.open(backend, cl.getOptionValue("runtime-options"));
        } catch (RuntimeFailure e) {
            io.err().println(dev.nunac.diag.Text.line("nunac run: " + e.getMessage()));
            return RUNTIME_ERROR;
        }
        try {
            s.load(table).allocate();
            String timing = null;
            if (repeat > 0) {
                double plain = s.timeLaunches(repeat, false);
                double pinned = s.timeLaunches(repeat, true);
                timing = String.format(Locale.ROOT, "median-launch-us: pinned %.1f plain %.1f (n=%d)", pinned, plain, repeat);
            }
            s.launch().verify();
            io.out().print(s.report());
            if (timing != null) io.out().println(timing);
            return Cli.OK;
        } catch (RuntimeFailure e) {
            io.out().print(s.report());
            io.err().println(dev.nunac.diag.Text.line("nunac run: " + e.status().name().toLowerCase(Locale.ROOT) + ": " + e.getMessage()));
            return RUNTIME_ERROR;
        } finally {
            s.close(); // after the report is printed: closing frees it
        }
    }
}
