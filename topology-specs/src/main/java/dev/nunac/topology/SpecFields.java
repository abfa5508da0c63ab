package dev.nunac.topology;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fields each object of the format accepts, by the name of its definition in
 * {@code schema/topology.schema.json} ($defs). The reader rejects anything else; a test keeps this
 * table and the schema in step.
 */
public final class SpecFields {
    private SpecFields() {}

    public static final Map<String, List<String>> FIELDS;

    static {
        Map<String, List<String>> m = new TreeMap<>();
        m.put("topology", List.of("$schema", "format", "name", "title", "description", "sources", "dies", "noc", "compute",
                "memory", "io", "scaleUp", "scaleOut", "latencies", "budgets", "nar"));
        m.put("quantity", List.of("value", "basis", "source", "note"));
        m.put("die", List.of("id", "kind", "at", "on"));
        m.put("noc", List.of("routing", "clockMHz", "hopCycles", "linkBandwidthGBs", "mesh", "routers", "links"));
        m.put("mesh", List.of("width", "height", "regions"));
        m.put("meshRegion", List.of("die", "x", "y"));
        m.put("router", List.of("id", "x", "y", "die"));
        m.put("link", List.of("from", "to", "latencyCycles", "bandwidthGBs"));
        m.put("routerSet", List.of("x", "y", "die"));
        m.put("compute", List.of("dispatch", "groups"));
        m.put("dispatch", List.of("rule", "dies", "basis", "source", "note"));
        m.put("cuGroup", List.of("routers", "perRouter", "die", "maskBit"));
        m.put("maskBit", List.of("start", "stride"));
        m.put("memory", List.of("bandwidthGBs", "capacityGiB", "latencyNs", "groups"));
        m.put("stackGroup", List.of("routers", "perRouter", "die"));
        m.put("io", List.of("bandwidthGBs", "groups"));
        m.put("portGroup", List.of("routers", "perRouter", "kind", "id", "die", "bandwidthGBs"));
        m.put("scaleUp", List.of("model", "gpus", "peers", "basis", "source", "note"));
        m.put("scaleOut", List.of("gpusPerBox", "latencyNs", "bandwidthGBs", "nics"));
        m.put("nic", List.of("id", "port", "distance"));
        m.put("latencies", List.of("cuToNocNs", "linkNs", "dieToDieNs"));
        m.put("budgets", List.of("outstandingPerCu", "inFlightBytesPerStack", "pageBytes", "threadblocksPerCu"));
        m.put("nar", List.of("granularities", "basis", "source", "note"));
        FIELDS = java.util.Collections.unmodifiableMap(m);
    }

    public static List<String> of(String def) {
        List<String> f = FIELDS.get(def);
        if (f == null) throw new IllegalArgumentException(def);
        return f;
    }
}
