package dev.nunac.cli;

import dev.nunac.compare.PolicyComparison;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac compare PLAN --topo T --sizes 100KB,1MB,...}: every policy x size, simulated. */
final class CompareCommand implements Command {
    static final String NAME = "compare";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "simulate a plan under every policy and size: time and speedup over UA";
    }

    @Override
    public String usage() {
        return "compare PLAN --topo TOPOLOGY --sizes LIST [-D name=value]... [--policies LIST] [--nar N|auto|off] [--csv]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.planOptions();
        CommonOptions.addTopologyOptions(o);
        o.addOption(Option.builder().longOpt("sizes").hasArg().argName("LIST")
                .desc("collective sizes, comma-separated, e.g. 100KB,1MB,10MB (bytes of the largest per-rank buffer)").get());
        o.addOption(Option.builder().longOpt("policies").hasArg().argName("LIST")
                .desc("policies to compare (default all: " + Policy.ids() + ")").get());
        CommonOptions.addNarOption(o);
        o.addOption(Option.builder().longOpt("csv").desc("print CSV instead of a table").get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, NAME);
        String sz = cl.getOptionValue("sizes");
        if (sz == null) throw new UsageException(NAME, "missing --sizes LIST, e.g. --sizes 100KB,1MB,10MB");
        List<Long> sizes = new ArrayList<>();
        for (String s : sz.split(",")) if (!s.isBlank()) sizes.add(Sizes.parse(s));
        if (sizes.isEmpty()) throw new UsageException(NAME, "--sizes: no sizes given");
        List<Policy> policies = new ArrayList<>(Arrays.asList(Policy.values()));
        String ps = cl.getOptionValue("policies");
        if (ps != null) {
            policies.clear();
            for (String p : ps.split(",")) {
                if (p.isBlank()) continue;
                policies.add(Policy.parse(p).orElseThrow(() -> new UsageException(NAME,
                        "--policies: unknown policy '" + p.trim() + "' (known: " + Policy.ids() + ")")));
            }
        }
        PlacementOptions base = CommonOptions.placementOptions(cl);
        Topology topo = CommonOptions.topology(cl, NAME);
        Plan plan = PlanLoader.load(planPath, CommonOptions.defines(cl), CommonOptions.limits(cl));
        List<PolicyComparison.Cell> cells = PolicyComparison.run(plan, topo, policies, sizes, base.nar());
        if (cl.hasOption("csv")) io.out().print(PolicyComparison.csv(cells));
        else {
            io.out().printf(java.util.Locale.ROOT, "%s on %s, %d ranks, %d threadblocks: simulated completion time, speedup over ua,"
                    + " NAR granularity%n", plan.name(), topo.name(), plan.ranks(), plan.threadblockCount());
            io.out().print(PolicyComparison.table(cells, policies, sizes, Sizes::format));
        }
        return 0;
    }
}
