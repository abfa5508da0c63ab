package dev.nunac.testkit;

import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyLoader;
import dev.nunac.topology.TopologyResolver;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Topologies for the passes' unit tests: the bundled specs by name, and a line of routers small
 * enough to reason about by hand.
 */
public final class Topologies {
    private Topologies() {}

    /** A spec shipped in {@code topology-specs/} ({@code nuna-4die}, {@code mi300x}, ...). */
    public static Topology bundled(String name) {
        return TopologyResolver.resolve(name);
    }

    /** The four-die test chip with 2 and 4 NAR domains: the bundled spec most pass tests use. */
    public static Topology nuna4die() {
        return bundled("nuna-4die");
    }

    /**
     * A 4x1 mesh with two CUs on every router, one HBM stack at x=3 and one scale-up port at x=0,
     * so that every store takes the same path: CU, west to the port, the switch, east to the
     * stack. 1 GHz NoC, 10 cycles a hop, 256 GB/s links, 25.6 GB/s port, 128 GB/s stack.
     */
    public static Topology line() {
        return line("{\"die\": \"d\"}");
    }

    /** The same line with CUs only on the routers {@code cuRouters} selects (spec syntax, e.g. {@code {"x": 0, "y": 0}}). */
    public static Topology line(String cuRouters) {
        return line(cuRouters, 0, 0, 0);
    }

    /**
     * The line with CUs on {@code cuRouters} and, where positive, a CU injection bandwidth and a
     * router injection and ejection limit (GB/s); where not, the spec leaves them to their defaults.
     */
    public static Topology line(String cuRouters, double cuGBs, double routerInGBs, double routerOutGBs) {
        String json = """
                {"format": 1, "name": "line", "title": "line", "sources": {"t": "test"},
                 "dies": [{"id": "d", "kind": "compute", "at": [0, 0]}],
                 "noc": {"routing": "xy", "clockMHz": %s, "hopCycles": %s, "linkBandwidthGBs": %s,%s
                         "mesh": {"width": 4, "height": 1, "regions": [{"die": "d", "x": "0..3", "y": "0..0"}]}},
                 "compute": {%s"dispatch": {"rule": "any", "basis": "assumed", "source": "t"},
                             "groups": [{"routers": %s, "perRouter": 2}]},
                 "memory": {"bandwidthGBs": %s, "capacityGiB": %s, "latencyNs": %s,
                            "groups": [{"routers": {"x": 3, "y": 0}, "perRouter": 1}]},
                 "io": {"bandwidthGBs": %s, "groups": [{"routers": {"x": 0, "y": 0}, "perRouter": 1, "kind": "scale-up"}]},
                 "scaleUp": {"model": "clos", "basis": "assumed", "source": "t"},
                 "latencies": {"cuToNocNs": %s, "linkNs": %s},
                 "budgets": {"outstandingPerCu": %s, "inFlightBytesPerStack": %s, "pageBytes": %s},
                 "nar": {"granularities": [1], "basis": "assumed", "source": "t"}}
                """.formatted(q(1000), q(10), q(256),
                (routerInGBs > 0 ? " \"routerInjectionGBs\": " + q(routerInGBs) + "," : "")
                        + (routerOutGBs > 0 ? " \"routerEjectionGBs\": " + q(routerOutGBs) + "," : ""),
                cuGBs > 0 ? "\"injectionGBs\": " + q(cuGBs) + ", " : "", cuRouters, q(128), q(16), q(50), q(25.6), q(100), q(400), q(700), q(1e6), q(4096));
        return TopologyLoader.parse("line.json", json.getBytes(StandardCharsets.UTF_8));
    }

    private static String q(double v) {
        return String.format(Locale.ROOT, "{\"value\": %s, \"basis\": \"assumed\", \"source\": \"t\"}", v);
    }
}
