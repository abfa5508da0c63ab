package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Limits;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An MSCCL++ execution plan with each gpu's threadblocks put in a given launch order. The
 * executor launches one block per entry of a gpu's {@code threadblocks} and block b runs entry b,
 * whose {@code id} must be b; so entry b becomes the plan's threadblock {@code grid[b]} with its
 * {@code id} set to b, and a slot of -1 becomes an empty threadblock (no ops, channels or remote
 * buffer references). Everything else is kept as written: every member of the plan, of each gpu
 * and of each threadblock, including those nunac does not read. Nothing else in a plan names a
 * threadblock by position: semaphores and channels belong to the gpu, and {@code tbg_info.tb_id}
 * is a threadblock's rank inside its group.
 */
public final class ThreadblockOrder {
    private ThreadblockOrder() {}

    /**
     * The plan in {@code bytes} as a value tree (maps, lists, strings, exact numbers, booleans,
     * null) with gpu k's threadblocks in the order {@code grids.get(k)}.
     */
    public static Map<String, Object> reorder(String file, byte[] bytes, Limits limits, List<int[]> grids) {
        JNode root = JsonReader.parse(file, bytes, JsonLimits.plan(limits));
        @SuppressWarnings("unchecked")
        Map<String, Object> plan = (Map<String, Object>) value(root);
        if (!(root instanceof JNode.JObject ro) || !(ro.fields().get("gpus") instanceof JNode.JArray gpus) || gpus.items().size() != grids.size()) {
            throw changed(file);
        }
        List<Object> outGpus = new ArrayList<>();
        for (int k = 0; k < grids.size(); k++) {
            JNode g = gpus.items().get(k);
            if (!(g instanceof JNode.JObject go) || !(go.fields().get("threadblocks") instanceof JNode.JArray tbs)) throw changed(file);
            @SuppressWarnings("unchecked")
            Map<String, Object> gpu = (Map<String, Object>) value(g);
            List<Object> placed = new ArrayList<>();
            int[] grid = grids.get(k);
            for (int b = 0; b < grid.length; b++) {
                Map<String, Object> tb;
                if (grid[b] < 0) {
                    tb = new LinkedHashMap<>();
                    tb.put("ops", List.of());
                    tb.put("channels", List.of());
                    tb.put("remote_buffer_refs", List.of());
                } else {
                    if (grid[b] >= tbs.items().size()) throw changed(file);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> t = (Map<String, Object>) value(tbs.items().get(grid[b]));
                    tb = t;
                }
                tb.put("id", BigInteger.valueOf(b));
                placed.add(tb);
            }
            gpu.put("threadblocks", placed);
            outGpus.add(gpu);
        }
        plan.put("gpus", outGpus);
        return plan;
    }

    private static CompileException changed(String file) {
        return new CompileException(ErrorKind.INPUT, dev.nunac.diag.SourcePos.of(file),
                "the plan file no longer matches the plan compiled (was it changed while nunac ran?)");
    }

    private static Object value(JNode n) {
        if (n instanceof JNode.JObject o) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (var e : o.fields().entrySet()) m.put(e.getKey(), value(e.getValue()));
            return m;
        }
        if (n instanceof JNode.JArray a) {
            List<Object> l = new ArrayList<>(a.items().size());
            for (JNode i : a.items()) l.add(value(i));
            return l;
        }
        if (n instanceof JNode.JString s) return s.value();
        // Exact numbers: an integer as written, any other in a form that reads back to the same value.
        if (n instanceof JNode.JNumber x) return x.integral() ? x.value().toBigIntegerExact() : x.value();
        if (n instanceof JNode.JBool b) return b.value();
        return null;
    }
}
