package dev.nunac.cli;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Plan;
import dev.nunac.passes.check.CheckPass;
import java.nio.file.Path;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/** {@code nunac check PLAN}: well-formedness and the collective's postcondition. */
final class CheckCommand implements Command {
    @Override
    public String name() {
        return "check";
    }

    @Override
    public String summary() {
        return "check a plan: well-formedness, deadlock freedom, the collective's postcondition";
    }

    @Override
    public String usage() {
        return "check PLAN [-D name=value]...";
    }

    @Override
    public Options options() {
        return CommonOptions.planOptions();
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path path = CommonOptions.onePlan(cl, name());
        Plan plan = CommonOptions.loadPlan(cl, path);
        Diagnostics d = new Diagnostics();
        CheckPass.check(plan, d);
        d.throwIfErrors(ErrorKind.PLAN);
        io.out().println(path + ": OK: " + plan.collective().id() + " \"" + plan.name() + "\", " + plan.ranks()
                + " ranks, " + plan.threadblockCount() + " threadblocks, " + plan.stepCount() + " steps"
                + (plan.collective() == dev.nunac.ir.Collective.CUSTOM ? " (custom collective: well-formedness only)" : ""));
        return 0;
    }
}
