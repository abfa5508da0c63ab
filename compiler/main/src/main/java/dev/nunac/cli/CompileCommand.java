package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.OutputFiles;
import dev.nunac.emit.PlacementHeader;
import dev.nunac.emit.PlacementJson;
import dev.nunac.emit.Report;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.PlacementStats;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code nunac PLAN --topo T}: check, place, realise, and emit placement.json, placement.h, report.txt. */
final class CompileCommand implements Command {
    static final String NAME = "compile";
    static final List<String> EMITS = List.of("json", "header", "report");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "place a plan on a topology and emit the maps (also: nunac PLAN --topo T)";
    }

    @Override
    public String usage() {
        return "[compile] PLAN --topo TOPOLOGY [-D name=value]... [--size BYTES] [--policy P] [--nar N|auto|off] [-o DIR] [--emit LIST]";
    }

    @Override
    public Options options() {
        Options o = CommonOptions.planOptions();
        CommonOptions.addTopologyOptions(o);
        o.addOption(Option.builder().longOpt("policy").hasArg().argName("P")
                .desc("placement policy: " + Policy.ids() + " (default nap+nar)").get());
        CommonOptions.addNarOption(o);
        o.addOption(Option.builder().longOpt("size").hasArg().argName("BYTES")
                .desc("collective size: bytes of the largest per-rank buffer, e.g. 1048576, 100KB, 1MiB (default 1MiB)").get());
        o.addOption(Option.builder("o").longOpt("output").hasArg().argName("DIR").desc("output folder (default out)").get());
        o.addOption(Option.builder().longOpt("emit").hasArg().argName("LIST")
                .desc("outputs to write, comma-separated: " + String.join(", ", EMITS) + " (default all)").get());
        o.addOption(Option.builder().longOpt("dump-after").hasArg().argName("PASS")
                .desc("print the IR or the pass's result after PASS: " + String.join(", ", Driver.PIPELINE.names())).get());
        return o;
    }

    @Override
    public int run(CommandLine cl, Io io) {
        Path planPath = CommonOptions.onePlan(cl, NAME);
        PlacementOptions opts = CommonOptions.placementOptions(cl);
        Set<String> emit = emits(cl.getOptionValue("emit"));
        String dumpAfter = cl.getOptionValue("dump-after");
        if (dumpAfter != null && !Driver.PIPELINE.names().contains(dumpAfter)) {
            throw new UsageException(NAME, "--dump-after: unknown pass '" + dumpAfter + "' (passes: "
                    + String.join(", ", Driver.PIPELINE.names()) + ")");
        }
        Topology topo = CommonOptions.topology(cl, NAME);
        Plan plan = PlanLoader.load(planPath, CommonOptions.defines(cl), CommonOptions.limits(cl));
        CompileResult r = Driver.compile(plan, topo, opts, Pipeline.verifyByDefault(), dumpAfter,
                (pass, text) -> io.out().print(text));
        PlacementStats ua = opts.policy() == Policy.UA ? r.placement().stats()
                : Driver.compile(plan, topo, new PlacementOptions(Policy.UA, opts.nar(), opts.sizeBytes()), false, null, null)
                        .placement().stats();
        OutputFiles out = new OutputFiles();
        if (emit.contains("json")) out.add("placement.json", PlacementJson.emit(r, ua));
        if (emit.contains("header")) out.add("placement.h", PlacementHeader.emit(r));
        if (emit.contains("report")) out.add("report.txt", Report.emit(r, ua));
        Path dir = Path.of(cl.getOptionValue("o", "out"));
        List<Path> written = out.writeTo(dir);
        io.err().println("nunac: " + plan.name() + " on " + topo.name() + ", policy " + r.placement().policy().id()
                + ", NAR " + r.nar().label() + ": wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
        return 0;
    }

    static Set<String> emits(String list) {
        if (list == null) return new LinkedHashSet<>(EMITS);
        Set<String> out = new LinkedHashSet<>();
        for (String s : list.split(",")) {
            String e = s.trim();
            if (e.isEmpty()) continue;
            if (!EMITS.contains(e)) throw new UsageException(NAME, "--emit: unknown output '" + e + "' (known: " + String.join(", ", EMITS) + ")");
            out.add(e);
        }
        if (out.isEmpty()) throw new UsageException(NAME, "--emit: nothing to emit");
        return out;
    }
}
