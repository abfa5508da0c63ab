package dev.nunac.cli;

import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyLoader;
import dev.nunac.topology.TopologyPrinter;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac topo list|show|validate}: the bundled specs, a spec's summary, a spec check. */
final class TopoCommand implements Command {
    @Override
    public String name() {
        return "topo";
    }

    @Override
    public String summary() {
        return "topology specs: list the bundled ones, show a summary, validate a spec";
    }

    @Override
    public String usage() {
        return "topo list | topo show NAME|PATH [--expanded] [--topo-override FILE] | topo validate NAME|PATH [--topo-override FILE]";
    }

    @Override
    public Options options() {
        Options o = new Options();
        o.addOption(Option.builder().longOpt("expanded").desc("show: print the expanded model (every router, CU, stack, port)").get());
        o.addOption(Option.builder().longOpt("topo-override").hasArg().argName("FILE")
                .desc("merge a JSON merge patch of measured values over the spec before validating").get());
        o.addOption(Option.builder().longOpt("verbose").desc("show internal details of failures").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        List<String> args = cl.getArgList();
        if (args.isEmpty()) throw new UsageException(name(), "missing subcommand: list, show or validate");
        String sub = args.get(0);
        Path override = cl.hasOption("topo-override") ? CommonOptions.path(cl.getOptionValue("topo-override"), "--topo-override") : null;
        switch (sub) {
            case "list" -> {
                expectArgs(args, 1, "list");
                for (String n : TopologyResolver.bundledNames()) {
                    Topology t = TopologyResolver.resolve(n);
                    io.out().println(n + "\t" + t.title());
                }
                return 0;
            }
            case "show" -> {
                expectArgs(args, 2, "show NAME|PATH");
                Topology t = TopologyResolver.resolve(args.get(1), override);
                io.out().print(cl.hasOption("expanded") ? TopologyPrinter.expanded(t) : TopologyPrinter.summary(t));
                return 0;
            }
            case "validate" -> {
                expectArgs(args, 2, "validate NAME|PATH");
                String arg = args.get(1);
                Path p = CommonOptions.path(arg, "PATH");
                // A bundled name as topo show takes it, unless a file of that name is here.
                String bundled = arg.endsWith(".json") ? arg.substring(0, arg.length() - ".json".length()) : arg;
                Topology t = !java.nio.file.Files.exists(p) && TopologyResolver.bundledNames().contains(bundled)
                        ? TopologyResolver.resolve(arg, override) : TopologyLoader.load(p, override);
                io.out().println(arg + ": OK: " + t.name() + ", " + t.cus().size() + " CUs, " + t.stacks().size() + " stacks, "
                        + t.ports().size() + " ports");
                return 0;
            }
            default -> throw new UsageException(name(), "unknown subcommand '" + sub + "' (list, show, validate)");
        }
    }

    private void expectArgs(List<String> args, int n, String form) {
        if (args.size() != n) throw new UsageException(name(), "usage: nunac topo " + form);
    }
}
