package dev.nunac;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.Map;

/**
 * The Java API for build-time callers: compile a plan onto a topology and get an immutable
 * result, which the emitters in {@code dev.nunac.emit} turn into files. No global state; errors
 * are {@link dev.nunac.diag.CompileException}s carrying the diagnostics.
 */
public final class Nunac {
    private Nunac() {}

    /**
     * Compiles a plan file (.msccl, .xml, .json) onto a bundled topology name or a spec path. An
     * MSCCL++ plan's bytes are kept in the result ({@link CompileResult#source}), which the placed
     * JSON rewrites.
     */
    public static CompileResult compile(Path plan, Map<String, String> defines, String topology, PlacementOptions options) {
        Plan p = PlanLoader.load(plan, defines, Limits.DEFAULT);
        CompileResult r = compile(p, TopologyResolver.resolve(topology), options);
        if (p.format() != dev.nunac.ir.PlanFormat.MSCCLPP_JSON) return r;
        // Read again: the placed JSON re-imports these bytes and refuses them if they are no longer the plan compiled.
        return r.withSource(new dev.nunac.driver.PlanSource(plan.toString(), PlanLoader.readBytes(plan, Limits.DEFAULT), Limits.DEFAULT));
    }

    /** Compiles DSL source text. */
    public static CompileResult compileSource(String name, String dslText, Map<String, String> defines, Topology topology,
                                              PlacementOptions options) {
        return compile(DslFrontEnd.parse(new SourceText(name, dslText), defines, Limits.DEFAULT), topology, options);
    }

    public static CompileResult compile(Plan plan, Topology topology, PlacementOptions options) {
        return Driver.compile(plan, topology, options, Pipeline.verifyByDefault(), null, null);
    }
}
