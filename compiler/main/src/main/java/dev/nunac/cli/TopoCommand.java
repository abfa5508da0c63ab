package dev.nunac.cli;

import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyLoader;
import dev.nunac.topology.TopologyPrinter;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.List;
import java.util.ArrayList;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nunac topo list|show|validate}: the bundled specs, a spec's summary, a spec check. */
@picocli.CommandLine.Command(name = TopoCommand.NAME, description = "topology specs: list the bundled ones, show a summary, validate a spec")
final class TopoCommand implements Command {
    static final String NAME = "topo";

    @Option(names = "--expanded", description = "show: print the expanded model (every router, CU, stack, port)")
    boolean expanded;

    @Option(names = "--topo-override", paramLabel = "FILE", description = "merge a JSON merge patch of measured values over the spec before validating")
    String override;

    @Parameters(paramLabel = "list | show NAME|PATH | validate NAME|PATH", description = "what to do, and the spec: a bundled name or a file")
    List<String> args = new ArrayList<>();

    @Override
    public int run(Io io) {
        if (args.isEmpty()) throw new UsageException(NAME, "missing subcommand: list, show or validate");
        String sub = args.get(0);
        Path override = this.override == null ? null : CommonOptions.path(this.override, "--topo-override");
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
                io.out().print(expanded ? TopologyPrinter.expanded(t) : TopologyPrinter.summary(t));
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
            default -> throw new UsageException(NAME, "unknown subcommand '" + sub + "' (list, show, validate)");
        }
    }

    private void expectArgs(List<String> args, int n, String form) {
        if (args.size() != n) throw new UsageException(NAME, "usage: nunac topo " + form);
    }
}
