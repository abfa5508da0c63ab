package dev.nunac.cli;

import dev.nunac.ir.IrPrinter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code nunac ir PLAN}: the IR in its stable text form (docs/ir.md). */
@picocli.CommandLine.Command(name = "ir", description = "print a plan's IR in the stable text form (docs/ir.md)")
final class IrCommand implements Command {
    @Mixin
    CommonOptions.PlanOptions plan;

    @Parameters(paramLabel = "PLAN", description = "the plan: .msccl, MSCCL-IR .xml or MSCCL++ .json")
    List<String> args = new ArrayList<>();

    @Override
    public int run(Io io) {
        io.out().print(IrPrinter.print(plan.load(CommonOptions.onePlan(args, "ir"))));
        return 0;
    }
}
