package dev.nunac.bench;

import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.Emission;
import dev.nunac.emit.Output;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Transfers;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.cost.AnalyticModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
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
 * The hot paths of a large compile (issue 21), one call each on the all-to-all direct plan at 256
 * and 512 ranks on nuna-4die (4 KiB per chunk, 65,280 and 261,632 transfers): an analytic estimate
 * of the nap+nar placement at granularity 4 (what the search does per candidate), that placement
 * itself, a chunk-space lookup of every chunk's storage, the whole placement search (at 512 ranks,
 * past 250,000 steps, over UA and nap+nar k=4 only) and rendering the whole-plan placement.json and
 * placement.h side by side (as the compile does, before writing), and the stages before the
 * search: the DSL interpreter with threadblock assignment and the IR verifier, the checker, access
 * analysis and logical allocation, from the plan's text. Single shots after two warm-up
 * calls: at these sizes one call takes a second or more. Run it alone, e.g.
 * {@code java -cp ... org.openjdk.jmh.Main ScaleBenchmark} with the class path bench/run.sh builds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xss16m"})
public class ScaleBenchmark {
    @Param({"256", "512"})
    public int ranks;

    PlacementInput in;
    LogicalGroups groups;
    Placement placement;
    ChunkSpace space;
    PlacementOptions options;
    CompileResult compiled;

    @Setup
    public void setup() {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        Plan plan = PlanLoader.load(Path.of("examples/alltoall-direct.msccl"), Map.of("ranks", String.valueOf(ranks)),
                Limits.DEFAULT.with("steps", 4_000_000L));
        Accesses acc = AccessAnalysis.analyse(plan);
        groups = LogicalAllocation.allocate(acc);
        in = new PlacementInput(plan, acc, topo, ranks * 4096L);
        placement = Placer.place(in, groups, Policy.NAP_NAR, 4);
        space = acc.space();
        options = PlacementOptions.auto(PlacementOptions.NAR_AUTO, ranks * 4096L);
        compiled = Driver.compile(plan, topo, options, false, null, null);
    }

    @Benchmark
    public Estimate analyticEstimate() {
        return new AnalyticModel().estimate(in, placement);
    }

    @Benchmark
    public Placement napNarPlacement() {
        return Placer.place(in, groups, Policy.NAP_NAR, 4);
    }

    @Benchmark
    public SearchResult placementSearch() {
        return PlacementSearch.search(in, groups, options);
    }

    @Benchmark
    public Map<Output, String> emitJsonAndHeader() {
        return Emission.render(compiled, Set.of(Output.JSON, Output.HEADER));
    }

    @Benchmark
    public LogicalGroups parseToLogicalAllocation() {
        Plan plan = PlanLoader.load(Path.of("examples/alltoall-direct.msccl"), Map.of("ranks", String.valueOf(ranks)),
                Limits.DEFAULT.with("steps", 4_000_000L));
        Diagnostics d = new Diagnostics();
        Transfers t = CheckPass.check(plan, d);
        if (d.hasErrors()) throw new IllegalStateException("the plan does not check");
        return LogicalAllocation.allocate(AccessAnalysis.analyse(plan, t));
    }

    @Benchmark
    public long storageLookups() {
        long sum = 0;
        for (int id = 0; id < space.size(); id++) sum += space.storageIndexOf(id);
        return sum;
    }
}
