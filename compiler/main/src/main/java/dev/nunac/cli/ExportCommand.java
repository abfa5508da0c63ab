package dev.nunac.cli;

import dev.nunac.emit.MscclXmlExporter;
import dev.nunac.emit.OutputFiles;
import dev.nunac.ir.Plan;
import java.nio.file.Path;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac export PLAN [-o FILE]}: the plan as MSCCL-IR XML for the RCCL/MSCCL executors. */
final class ExportCommand implements Command {
    @Override
    public String name() {
        return "export";
    }

    @Override
    public String summary() {
        return "write a plan as MSCCL-IR XML (the newer executors' dialect)";
    }

    @Override
    public String usage() {
        return "export PLAN [-D name=value]... [-o FILE]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.planOptions();
        o.addOption(Option.builder("o").longOpt("output").hasArg().argName("FILE").desc("write to FILE instead of stdout").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, name());
        String out = cl.getOptionValue("o");
        Path file = null;
        if (out != null) {
            file = CommonOptions.path(out, "-o");
            if (file.getFileName() == null) throw new UsageException(name(), "-o: '" + out + "' names no file");
        }
        Plan plan = CommonOptions.loadPlan(cl, planPath);
        String xml = MscclXmlExporter.export(plan);
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
