package dev.nunac.sweep;

import dev.nunac.ir.Plan;
import dev.nunac.topology.Topology;
import java.util.List;
import java.util.Map;

/**
 * A sweep read from its spec ({@link SpecReader}): the points in spec order (plans, then their
 * parameter sets, GPU counts, topologies and sizes, the last varying fastest), the rows every
 * point reports ({@code auto}, the default search, and policy ids, in the spec's order), the NAR
 * setting and layout ({@code packed}: as {@code --layout packed}), the size every plan is
 * compiled at before each point searches at its own, and {@code simulated}: every row's choice
 * and UA timed by the simulator (spec field {@code "timing": "simulation"}), also where the
 * search let the analytic estimate decide — as the paper reproduction times them.
 */
public record SweepSpec(List<Point> points, List<String> rows, int nar, boolean packed, long compileSize, boolean simulated) {
    public SweepSpec {
        points = List.copyOf(points);
        rows = List.copyOf(rows);
    }

    /**
     * One plan at one parameter set (GPU count included), loaded: {@code name} is the plan's
     * label, {@code key} the label with the parameters, the start of its points' ids.
     */
    public record PlanCase(String name, String key, String file, Map<String, String> defines, Plan plan) {}

    /** One topology, by the name the spec gave (a bundled name, or a spec file's name). */
    public record TopoCase(String name, Topology topology) {}

    /**
     * One point of the cross product. Its {@code id} is made of the spec's own words (plan label,
     * parameters, GPUs, topology, size), so the same point has the same id, and file name, on
     * every run and every shard.
     */
    public record Point(String id, PlanCase plan, TopoCase topo, long sizeBytes) {}
}
