package dev.nunac.cli;

import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.Plan;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/** {@code nunac ir PLAN}: the IR in its stable text form (docs/ir.md). */
final class IrCommand implements Command {
    @Override
    public String name() {
        return "ir";
    }

    @Override
    public String summary() {
        return "print a plan's IR in the stable text form (docs/ir.md)";
    }

    @Override
    public String usage() {
        return "ir PLAN [-D name=value]...";
    }

    @Override
    public Options options() {
        return CommonOptions.planOptions();
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Plan plan = CommonOptions.loadPlan(cl, CommonOptions.onePlan(cl, name()));
        io.out().print(IrPrinter.print(plan));
        return 0;
    }
}
