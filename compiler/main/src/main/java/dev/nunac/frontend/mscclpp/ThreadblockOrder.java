package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Limits;
import java.math.BigDecimal;
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
        JsonNode root = JsonTreeReader.read(file, bytes, limits);
        @SuppressWarnings("unchecked")
        Map<String, Object> plan = (Map<String, Object>) value(root);
        JsonNode gpus = root.get("gpus");
        if (gpus == null || gpus.kind() != JsonNode.Kind.ARRAY || gpus.items().size() != grids.size()) {
            throw changed(file);
        }
        List<Object> outGpus = new ArrayList<>();
        for (int k = 0; k < grids.size(); k++) {
            JsonNode g = gpus.items().get(k);
            JsonNode tbs = g.get("threadblocks");
            if (tbs == null || tbs.kind() != JsonNode.Kind.ARRAY) throw changed(file);
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

    private static Object value(JsonNode n) {
        return switch (n.kind()) {
            case OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                for (var e : n.fields().entrySet()) m.put(e.getKey(), value(e.getValue()));
                yield m;
            }
            case ARRAY -> {
                List<Object> l = new ArrayList<>(n.items().size());
                for (JsonNode i : n.items()) l.add(value(i));
                yield l;
            }
            case STRING -> n.text();
            // Exact numbers: an integer as written, any other in a form that reads back to the same value.
            case NUMBER -> n.isInt() ? new BigInteger(n.text()) : new BigDecimal(n.text());
            case BOOLEAN -> Boolean.valueOf(n.text());
            case NULL -> null;
        };
    }
}
