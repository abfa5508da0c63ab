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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nunac run PLAN --topo T [--backend B]}: compiles the plan, hands its launch table to the
 * runtime shim, launches, verifies the data and prints the launch report. Exit 4 when the
 * runtime refuses or fails (backend unavailable, placement does not fit, timeout, wrong data).
 */
@picocli.CommandLine.Command(name = RunCommand.NAME, description = "compile a plan, run it on the runtime shim, verify the data and print the launch report")
final class RunCommand implements Command {
    static final String NAME = "run";
    static final int RUNTIME_ERROR = 4;

    @Mixin
    CommonOptions.PlacedPlan placed;

    @Option(names = "--backend", paramLabel = "B", description = "runtime backend: auto (cuda, then hip, then host), host, cuda, hip (default auto)")
    String backend = "auto";

    @Option(names = "--runtime-options", paramLabel = "OPTS", description = "runtime options, space-separated key=value (docs/runtime.md), e.g. \"timeout_ms=5000\"")
    String runtimeOptions;

    @Option(names = "--repeat", paramLabel = "N", description = "also time N pinned and N plain launches and print their medians")
    String repeat;

    @Override
    public int run(Io io) {
        Path planPath = placed.plan.path(NAME);
        PlacementOptions opts = placed.options();
        String backend = this.backend.toLowerCase(Locale.ROOT);
        if (!NunaRuntime.BACKENDS.contains(backend)) {
            throw new UsageException(NAME, "--backend: unknown backend '" + backend + "' (auto, host, cuda, hip)");
        }
        int repeat = 0;
        if (this.repeat != null) {
            try {
                String n = this.repeat;
                repeat = dev.nunac.diag.Text.isAsciiInteger(n) ? Integer.parseInt(n) : -1;
            } catch (NumberFormatException e) {
                repeat = -1;
            }
            if (repeat < 1 || repeat > 1_000_000) throw new UsageException(NAME, "--repeat: expected a count in 1..1000000");
        }
        CommonOptions.Inputs in = placed.inputs(NAME, planPath, t -> dev.nunac.passes.search.PlacementSearch.granularities(t, opts));
        Topology topo = in.topology();
        Plan p = in.plan();
        CompileResult r = Driver.compile(p, topo, opts, Pipeline.verifyByDefault(), null, null);
        String table = LaunchTable.emit(r);
        if (!NunaRuntime.isAvailable()) {
            io.err().println("nunac run: the native runtime is unavailable: " + NunaRuntime.unavailabilityCause().getMessage());
            return RUNTIME_ERROR;
        }
        Session s;
        try {
            s = NunaRuntime.open(backend, runtimeOptions);
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
