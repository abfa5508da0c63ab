package dev.nunac.bench;

import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.PlacementHeader;
import dev.nunac.emit.PlacementJson;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.passes.realise.Realised;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Compile speed per stage on nuna-4die: parse, check, access analysis, logical allocation, one
 * placement (Algorithm 1 at NAR granularity 12), the default placement search (every candidate
 * placed and estimated, a shortlist simulated), realisation, emit, and the whole default
 * compile (parse to emitted texts, search included). Plans: all-to-all direct at 16 to 256 ranks (256
 * ranks = 65,280 transfers) with one 4 KiB page per chunk, so that the work per transfer is the
 * same at every size (the buffers hold ranks × 4 KiB: 1 MiB at 256 ranks); all-gather direct
 * at 8 ranks with 1,008 threadblocks per GPU; and the largest corpus file. Average time over
 * one-second iterations after eight seconds of warm-up: a single shot of a small plan would
 * time the interpreter, not the compiled code, and the whole compile of the largest plans takes
 * about eight iterations to settle (JIT and heap sizing). Run through bench/run.sh, which prints the tables.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xss16m"})
public class CompileBenchmark {
    @Param({"alltoall-16", "alltoall-64", "alltoall-128", "alltoall-256", "allgather-8x1008", "corpus-largest"})
    public String input;

    Topology topo;
    Path file;
    Map<String, String> defines;
    Plan plan;
    Accesses acc;
    LogicalGroups groups;
    PlacementInput placementInput;
    Placement placement;
    CompileResult result;
    PlacementOptions options;

    /** Bytes of the largest per-rank buffer: 4 KiB per chunk for all-to-all, 1 MiB otherwise. */
    static long size(String input) {
        return input.startsWith("alltoall-") ? Long.parseLong(input.substring("alltoall-".length())) * 4096 : 1L << 20;
    }

    @Setup
    public void setup() throws Exception {
        topo = TopologyResolver.resolve("nuna-4die");
        options = PlacementOptions.auto(PlacementOptions.NAR_AUTO, size(input));
        defines = new HashMap<>();
        if (input.startsWith("alltoall-")) {
            file = Path.of("examples/alltoall-direct.msccl");
            defines.put("ranks", input.substring("alltoall-".length()));
        } else if (input.equals("allgather-8x1008")) {
            file = Path.of("examples/allgather-direct.msccl");
            defines.put("ranks", "8");
            defines.put("tbs_per_peer", "144");
        } else {
            file = largestCorpusFile();
        }
        plan = PlanLoader.load(file, defines, Limits.DEFAULT);
        acc = AccessAnalysis.analyse(plan);
        groups = LogicalAllocation.allocate(acc);
        placementInput = new PlacementInput(plan, acc, topo, options.sizeBytes());
        placement = Placer.place(placementInput, groups, Policy.NAP_NAR, 12);
        result = Driver.compile(plan, topo, options, false, null, null);
    }

    static Path largestCorpusFile() throws Exception {
        Path best = null;
        long size = -1;
        for (String dir : new String[] {"../shared/corpus/msccl-xml", "../shared/corpus/mscclpp-json"}) {
            Path d = Path.of(dir);
            if (!Files.isDirectory(d)) continue;
            try (var s = Files.list(d)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String n = p.toString();
                    if ((n.endsWith(".xml") || n.endsWith(".json")) && Files.size(p) > size) {
                        size = Files.size(p);
                        best = p;
                    }
                }
            }
        }
        if (best == null) throw new IllegalStateException("../shared/corpus is not beside the repository");
        return best;
    }

    @Benchmark
    public Plan parse() {
        return PlanLoader.load(file, defines, Limits.DEFAULT);
    }

    @Benchmark
    public Diagnostics check() {
        Diagnostics d = new Diagnostics();
        CheckPass.check(plan, d);
        return d;
    }

    @Benchmark
    public Accesses accessAnalysis() {
        return AccessAnalysis.analyse(plan);
    }

    @Benchmark
    public LogicalGroups logicalAllocation() {
        return LogicalAllocation.allocate(acc);
    }

    @Benchmark
    public Placement physicalPlacement() {
        return Placer.place(placementInput, groups, Policy.NAP_NAR, 12);
    }

    @Benchmark
    public SearchResult placementSearch() {
        return PlacementSearch.search(placementInput, groups, options);
    }

    @Benchmark
    public Realised realisation() {
        return Realisation.realise(plan, placement, topo);
    }

    @Benchmark
    public int emit() {
        return PlacementJson.emit(result).length() + PlacementHeader.emit(result).length();
    }

    @Benchmark
    public int endToEnd() {
        CompileResult r = Driver.compile(PlanLoader.load(file, defines, Limits.DEFAULT), topo, options, false, null, null);
        return PlacementJson.emit(r).length() + PlacementHeader.emit(r).length();
    }
}
