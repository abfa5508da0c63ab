package dev.nunac.sweep;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.emit.CanonicalJson;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import dev.nunac.json.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep.json} in a sweep's folder: every point id in spec order, the rows, the NAR
 * setting, the layout and the timing (written only when it is not the default, so folders of
 * earlier sweeps still resume). Every shard writes the same bytes, so the shards of one sweep agree on it and a
 * folder holding another sweep's results is recognised; the merge reads it to know which
 * points to expect and in which order.
 */
record Manifest(List<String> rows, String nar, String layout, String timing, List<String> points) {
    static final String FILE = "sweep.json";
    static final String FORMAT = "nunac-sweep-1";

    static Manifest of(SweepSpec spec) {
        String nar = spec.nar() == PlacementOptions.NAR_AUTO ? "auto" : spec.nar() == PlacementOptions.NAR_OFF ? "off" : String.valueOf(spec.nar());
        return new Manifest(spec.rows(), nar, spec.packed() ? "packed" : "natural", spec.simulated() ? "simulation" : "search",
                spec.points().stream().map(SweepSpec.Point::id).toList());
    }

    String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("policies", rows);
        m.put("nar", nar);
        m.put("layout", layout);
        if (!timing.equals("search")) m.put("timing", timing);
        m.put("points", points);
        return CanonicalJson.write(m);
    }

    static Manifest read(String file, byte[] bytes) {
        JNode root = JsonReader.parse(file, bytes, PointResult.LIMITS);
        if (!(root instanceof JNode.JObject o) || !(o.fields().get("format") instanceof JNode.JString f) || !f.value().equals(FORMAT)) {
            throw new CompileException(ErrorKind.INPUT, root.pos(), "not a sweep's " + FILE + " (format " + FORMAT + ")");
        }
        return new Manifest(strings(o, "policies"), o.fields().get("nar") instanceof JNode.JString s ? s.value() : "?",
                o.fields().get("layout") instanceof JNode.JString l ? l.value() : "?",
                o.fields().get("timing") instanceof JNode.JString t ? t.value() : "search", strings(o, "points"));
    }

    private static List<String> strings(JNode.JObject o, String k) {
        JsonFields f = JsonFields.root(o, JsonFields.stop(ErrorKind.INPUT));
        List<String> out = new ArrayList<>();
        List<JNode> items = f.items(k, true);
        for (int i = 0; i < items.size(); i++) out.add(f.string(items.get(i), f.at(k) + "[" + i + "]"));
        return out;
    }
}
