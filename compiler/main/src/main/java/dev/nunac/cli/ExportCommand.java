package dev.nunac.cli;

import dev.nunac.emit.MscclXmlExporter;
import dev.nunac.emit.OutputFiles;
import dev.nunac.ir.Plan;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nunac export PLAN [-o FILE]}: the plan as MSCCL-IR XML for the RCCL/MSCCL executors. */
@picocli.CommandLine.Command(name = "export", description = "write a plan as MSCCL-IR XML (the newer executors' dialect)")
final class ExportCommand implements Command {
    @Mixin
    CommonOptions.PlanOptions plan;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write to FILE instead of stdout")
    String output;

    @Override
    public int run(Io io) {
        Path planPath = plan.path("export");
        Path file = null;
        if (output != null) {
            file = CommonOptions.path(output, "-o");
            if (file.getFileName() == null) throw new UsageException("export", "-o: '" + output + "' names no file");
        }
        Plan p = plan.load(planPath);
        String xml = MscclXmlExporter.export(p);
        if (file == null) {
            io.out().print(xml);
            io.out().flush();
            return 0;
        }
        // Through a temporary file and a rename, like every other output: never a half-written plan.
        Path dir = file.toAbsolutePath().getParent();
        new OutputFiles().add(file.getFileName().toString(), xml).writeTo(dir);
        return 0;
    }
}
