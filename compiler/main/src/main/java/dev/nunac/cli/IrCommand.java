package dev.nunac.cli;

import dev.nunac.ir.IrPrinter;
import picocli.CommandLine.Mixin;

/** {@code nunac ir PLAN}: the IR in its stable text form (docs/ir.md). */
@picocli.CommandLine.Command(name = "ir", description = "print a plan's IR in the stable text form (docs/ir.md)")
final class IrCommand implements Command {
    @Mixin
    CommonOptions.PlanOptions plan;

    @Override
    public int run(Io io) {
        io.out().print(IrPrinter.print(plan.load(plan.path("ir"))));
        return 0;
    }
}
