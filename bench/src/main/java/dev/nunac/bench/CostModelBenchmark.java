package dev.nunac.bench;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.access.AccessAnalysis;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.cost.AnalyticModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.cost.IdealBound;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 8-GPU 1 MB all-gather (direct) at 1,008 threadblocks per GPU on nuna-4die: one simulation of
 * one placement (target under 2 s), one analytic estimate of it, the ideal bound, and the whole
 * default placement search (every candidate estimated, a shortlist simulated). Run from the
 * repository root: {@code ./mvnw -Pbench package -pl bench -am -DskipTests} then
 * {@code java -cp "bench/target/classes:$(cat bench/target/cp.txt)" org.openjdk.jmh.Main}, or see
 * docs/paper-reproduction.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class CostModelBenchmark {
    Topology topo;
    Plan plan;
    CompileResult placed;
    Accesses acc;
    LogicalGroups groups;

    @Setup
    public void setup() {
        topo = TopologyResolver.resolve("nuna-4die");
        plan = PlanLoader.load(Path.of("examples/allgather-direct.msccl"), Map.of("ranks", "8", "tbs_per_peer", "144"), Limits.DEFAULT);
        placed = Driver.compile(plan, topo, new PlacementOptions(Policy.UA, PlacementOptions.NAR_AUTO, 1_000_000L), false, null, null);
        acc = AccessAnalysis.analyse(plan);
        groups = placed.groups();
    }

    @Benchmark
    public SimResult simulateOnePolicy() {
        return Driver.simulate(placed, SimConfig.defaults());
    }

    @Benchmark
    public Estimate analyticEstimate() {
        return new AnalyticModel().estimate(placed.input(), placed.placement());
    }

    @Benchmark
    public IdealBound.Bound idealBound() {
        return IdealBound.of(placed.input());
    }

    @Benchmark
    public SearchResult search() {
        return PlacementSearch.search(placed.input(), groups, PlacementOptions.auto(PlacementOptions.NAR_AUTO, 1_000_000L));
    }
}
