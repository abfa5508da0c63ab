package dev.nunac.cli;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.driver.PlanSource;
import dev.nunac.driver.Tuning;
import dev.nunac.emit.EmitSettings;
import dev.nunac.emit.Emission;
import dev.nunac.emit.Output;
import dev.nunac.emit.OutputFiles;
import dev.nunac.emit.PerRankOutputs;
import dev.nunac.emit.PlacementHeader;
import dev.nunac.emit.PlacementJson;
import dev.nunac.emit.RcclLimits;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.emit.Report;
import dev.nunac.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code nunac PLAN --topo T}: check, place, realise, and write the outputs (see {@link Output}):
 * placement.json, placement.h and report.txt, plus those --emit names, or exactly those --only names.
 */
@picocli.CommandLine.Command(name = CompileCommand.NAME, description = "place a plan on a topology and emit the maps (also: nunac PLAN --topo T)")
final class CompileCommand implements Command {
    static final String NAME = "compile";

    @Mixin
    CommonOptions.PlacedPlan placed;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "output folder (default out)")
    String output = "out";

    @Option(names = "--emit", paramLabel = "LIST", description = "outputs to write besides the defaults (${bundle:list.default-outputs}),"
            + " comma-separated: ${bundle:list.outputs}")
    String emit;

    @Option(names = "--only", paramLabel = "LIST", description = "write these outputs and no others, comma-separated (names as for --emit)")
    String only;

    @Option(names = "--header-prefix", paramLabel = "NAME", description = "prefix of placement.h's arrays (NAME_tb_cu) and macros"
            + " (NAME_RANKS), a C identifier, so that headers of several placements can be included in one translation unit (default "
            + EmitSettings.DEFAULT_PREFIX + ")")
    String headerPrefix;

    @Option(names = "--per-rank", description = "write placement.json and placement.h (and launch.txt, when emitted) once per rank,"
            + " as rank-NNNN.placement.json ..., in the compact form, with index.json listing them and their SHA-256 digests")
    boolean perRank;

    @Option(names = "--compact", description = "write placement.json (version " + PlacementJson.VERSION_COMPACT + ") and placement.h"
            + " in the compact form: one-CU masks as indices, page maps as runs")
    boolean compact;

    @Mixin
    CommonOptions.Quiet quiet;

    @Option(names = "--rank", paramLabel = "N", description = "the rank floorplan.svg shows (--emit svg; default 0)")
    String rank;

    @Option(names = "--dump-after", paramLabel = "PASS", description = "print the IR or the pass's result after PASS: ${bundle:list.passes}")
    String dumpAfter;

    @Option(names = "--timings", description = "print the time of each stage to standard error")
    boolean timings;

    @Option(names = "--tune", paramLabel = "NAME=v1,v2,...", description = "search a plan parameter jointly with policy and"
            + " granularity, e.g. --tune tbs_per_peer=1,4,16 (repeatable; .msccl plans; off by default)")
    List<String> tune = new ArrayList<>();

    @Override
    public int run(Io io) {
        Path planPath = placed.plan.path(NAME);
        Set<Output> emit = emits(this.emit, only);
        EmitSettings settings = settings(headerPrefix);
        if (perRank && compact) {
            throw new UsageException(NAME, "--per-rank writes the compact form already; --compact is for the whole-plan files");
        }
        if (perRank && java.util.Collections.disjoint(emit, PER_RANK)) {
            throw new UsageException(NAME, "--per-rank: no per-rank output among those asked for (json, header, launch)");
        }
        PlacementOptions opts = placed.options();
        if (emit.contains(Output.PLACED_XML)) {
            // A placed XML that RCCL refuses helps no one: choose among placements whose grid RCCL launches.
            opts = opts.withMaxBlocks(RcclLimits.MAX_THREADBLOCKS_PER_GPU);
        }
        if (dumpAfter != null && !Driver.PIPELINE.names().contains(dumpAfter)) {
            throw new UsageException(NAME, "--dump-after: unknown pass '" + dumpAfter + "' (passes: "
                    + String.join(", ", Driver.PIPELINE.names()) + ")");
        }
        // the format follows the extension (PlanLoader): known before the plan is read
        if (emit.contains(Output.PLACED_JSON) && !PlanLoader.extension(planPath.toString()).equals("json")) {
            throw new UsageException(NAME, "--emit placed-json: " + planPath + " is not an MSCCL++ execution plan (.json);"
                    + " placed-xml writes MSCCL-IR plans");
        }
        if (!tune.isEmpty() && dumpAfter != null) throw new UsageException(NAME, "--dump-after and --tune: choose one");
        var tuned = tune.isEmpty() ? null : Tuning.parse(tune);
        Path dir = CommonOptions.path(output, "-o");
        // the search can take seconds: an output path that no output could be written to is refused before it
        List<String> names = new java.util.ArrayList<>();
        for (Output o : emit) if (!(perRank && PER_RANK.contains(o))) names.add(o.file);
        names.add(OutputFiles.MANIFEST);
        OutputFiles.checkWritable(dir, names);
        PlacementOptions options = opts;
        CommonOptions.Inputs in = placed.inputs(NAME, planPath, t -> PlacementSearch.granularities(t, options));
        Topology topo = in.topology();
        Plan p = in.plan();
        settings = new EmitSettings(settings.headerPrefix(), rank(rank, in.plan().ranks()), compact);
        // The header's fingerprints hash the plan's whole IR text (21 MB at 512 ranks) and depend on
        // no pass: taken beside the passes, on a core they leave idle, not in the emit stage.
        var fingerprints = emit.contains(Output.HEADER) && tuned == null
                ? dev.nunac.driver.Parallel.start("nunac-fingerprints", () -> PlacementHeader.Fingerprints.of(p, topo)) : null;
        CompileResult r;
        if (tuned != null) {
            r = Tuning.run(planPath, placed.plan.defines(), placed.plan.limits(), tuned, topo, opts).result();
            io.out().println(r.tuning());
        } else if (dumpAfter != null) {
            r = Driver.compile(p, topo, opts, Pipeline.verifyByDefault(), dumpAfter, (pass, text) -> io.out().print(text));
        } else {
            // the placement search of a large plan takes a while
            try (dev.nunac.compare.Progress progress = CommonOptions.progress(quiet.quiet, io, "placing " + p.threadblockCount()
                    + " threadblocks", 0)) {
                r = Driver.compile(p, topo, opts, Pipeline.verifyByDefault(), null, null);
            }
        }
        if (emit.contains(Output.PLACED_JSON)) {
            // The placed JSON rewrites the file itself, keeping every member the executor reads.
            var limits = placed.plan.limits();
            r = r.withSource(new PlanSource(planPath.toString(), PlanLoader.readBytes(planPath, limits), limits));
        }
        long tPlaced = System.nanoTime();
        OutputFiles out = new OutputFiles().withManifest();
        Set<Output> whole = new java.util.TreeSet<>(emit);
        if (perRank) whole.removeAll(PER_RANK);
        // The outputs that grow with the plan go straight to their files as they are made; the
        // others are rendered first, so that one that fails (plan.xml of a one-sided plan) does so
        // before anything is written.
        Set<Output> rendered = new java.util.TreeSet<>(whole);
        rendered.removeIf(Output::streams);
        var texts = Emission.render(r, rendered, settings);
        CompileResult result = r;
        EmitSettings how = settings;
        // a pass that rewrote the plan would have made other fingerprints
        PlacementHeader.Fingerprints fp = fingerprints != null && r.plan() == p && r.topology() == topo
                ? dev.nunac.driver.Parallel.join(fingerprints) : null;
        for (Output o : whole) {
            if (o.streams()) out.add(o.file, text -> o.write(result, how, fp, text));
            else out.add(o.file, texts.get(o));
        }
        if (perRank) {
            PerRankOutputs.render(r, settings, fp, emit.contains(Output.JSON), emit.contains(Output.HEADER), emit.contains(Output.LAUNCH))
                    .forEach(out::add);
        }
        List<Path> written = out.writeTo(dir);
        if (timings) {
            Timings.print(io, in.topologyNanos(), in.planNanos(), r.nanosByPass(), System.nanoTime() - tPlaced);
        }
        io.out().println(Report.headline(r));
        String note = Report.notice(r);
        if (note != null) io.out().println(note);
        if (perRank) {
            String first = PerRankOutputs.prefix(0, p.ranks());
            List<Path> wholeFiles = written.stream().filter(f -> !f.getFileName().toString().startsWith("rank-")).toList();
            io.err().println(dev.nunac.diag.Text.line("nunac: wrote " + String.join(", ", wholeFiles.stream().map(Path::toString).toList()) + " and "
                    + (written.size() - wholeFiles.size()) + " per-rank files " + dir.resolve(first + ".*") + " ..."));
        } else {
            io.err().println(dev.nunac.diag.Text.line("nunac: wrote " + String.join(", ", written.stream().map(Path::toString).toList())));
        }
        return 0;
    }

    /** The outputs --per-rank writes once per rank; the others stay whole. */
    static final Set<Output> PER_RANK = Set.of(Output.JSON, Output.HEADER, Output.LAUNCH);

    /** {@code --rank N}: a rank of the plan, 0 when not given. */
    static int rank(String value, int ranks) {
        if (value == null) return 0;
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n >= ranks) {
            throw new UsageException(NAME, "--rank: expected a rank from 0 to " + (ranks - 1) + " (the plan has " + ranks
                    + " ranks), got '" + value + "'");
        }
        return n;
    }

    static EmitSettings settings(String prefix) {
        if (prefix == null) return EmitSettings.DEFAULT;
        if (!EmitSettings.validPrefix(prefix)) {
            throw new UsageException(NAME, "--header-prefix expects a C identifier that starts with a letter (at most 64"
                    + " characters), got '" + prefix + "'");
        }
        return new EmitSettings(prefix);
    }

    /**
     * The outputs to write: the defaults plus {@code --emit}'s, or exactly {@code --only}'s. Adding
     * keeps a folder's outputs from one run: a picture asked for is not beside a stale placement.
     */
    static Set<Output> emits(String emit, String only) {
        if (emit != null && only != null) {
            throw new UsageException(NAME, "--emit and --only: choose one (--emit adds to the default outputs, --only replaces them)");
        }
        Set<Output> out = new java.util.TreeSet<>();
        if (only == null) for (Output o : Output.values()) if (o.byDefault) out.add(o);
        if (emit == null && only == null) return out;
        String option = only != null ? "--only" : "--emit";
        String list = only != null ? only : emit;
        boolean named = false;
        for (String s : list.split(",")) {
            if (s.isBlank()) continue;
            named = true;
            out.add(Output.parse(s).orElseThrow(() -> new UsageException(NAME, option + ": unknown output '" + s.trim()
                    + "' (known: " + String.join(", ", Output.ids(false)) + ")")));
        }
        if (!named) throw new UsageException(NAME, option + ": no output named (known: " + String.join(", ", Output.ids(false)) + ")");
        return out;
    }
}
