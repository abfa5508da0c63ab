package dev.nunac.cli;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac PLAN --topo T}: placement and emitted maps. */
final class CompileCommand implements Command {
    static final String NAME = "compile";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "place a plan on a topology and emit the maps (nunac PLAN --topo T)";
    }

    @Override
    public String usage() {
        return "PLAN --topo TOPOLOGY [-D name=value]... [-o DIR]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.planOptions();
        o.addOption(Option.builder().longOpt("topo").hasArg().argName("TOPOLOGY").desc("topology spec: a bundled name or a path").get());
        o.addOption(Option.builder("o").longOpt("output").hasArg().argName("DIR").desc("output folder").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        io.err().println("nunac: compiling a plan onto a topology (placement) is not available in this version yet;"
                + " use 'nunac check PLAN' to check a plan or 'nunac ir PLAN' to see its IR");
        return Cli.USAGE;
    }
}
