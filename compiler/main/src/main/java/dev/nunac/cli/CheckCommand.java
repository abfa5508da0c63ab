package dev.nunac.cli;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Plan;
import dev.nunac.passes.check.CheckPass;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;

/** {@code nunac check PLAN}: well-formedness and the collective's postcondition. */
@picocli.CommandLine.Command(name = "check", description = "check a plan: well-formedness, deadlock freedom, the collective's postcondition")
final class CheckCommand implements Command {
    @Mixin
    CommonOptions.PlanOptions plan;

    @Override
    public int run(Io io) {
        Path path = plan.path("check");
        Plan p = plan.load(path);
        Diagnostics d = new Diagnostics();
        CheckPass.check(p, d);
        d.throwIfErrors(ErrorKind.PLAN);
        io.out().println(path + ": OK: " + p.collective().id() + " \"" + p.name() + "\", " + p.ranks()
                + " ranks, " + p.threadblockCount() + " threadblocks, " + p.stepCount() + " steps"
                + (p.collective() == dev.nunac.ir.Collective.CUSTOM ? " (custom collective: well-formedness only)" : ""));
        return 0;
    }
}
