package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Parallel;
import dev.nunac.passes.place.PlacementStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Renders the chosen outputs of one compilation. Each output is a pure function of the result
 * (and of the UA baseline, computed only when an output needs it), so they render side by
 * side on the machine's cores: on large plans the JSON, the header and the baseline placement
 * each take a comparable share of the compile. The texts do not depend on the order in which
 * they finish.
 */
public final class Emission {
    private Emission() {}

    /** The rendered texts, by output, in the set's order. Errors of any output are rethrown as they were. */
    public static Map<Output, String> render(CompileResult r, Set<Output> outputs, Supplier<PlacementStats> baseline) {
        int threads = Math.min(outputs.size() + 1, Runtime.getRuntime().availableProcessors());
        if (threads <= 1) return sequential(r, outputs, baseline);
        ExecutorService pool = Parallel.pool("nunac-emit", threads);
        try {
            boolean need = outputs.stream().anyMatch(o -> o.needsBaseline);
            CompletableFuture<PlacementStats> ua = need ? CompletableFuture.supplyAsync(baseline, pool)
                    : CompletableFuture.completedFuture(null);
            // Outputs that wait for the baseline go last, so the others fill the cores meanwhile.
            List<Output> order = new ArrayList<>(outputs);
            order.sort((a, b) -> Boolean.compare(a.needsBaseline, b.needsBaseline));
            Map<Output, CompletableFuture<String>> byOutput = new LinkedHashMap<>();
            for (Output o : order) {
                CompletableFuture<String> f = o.needsBaseline ? ua.thenApplyAsync(s -> o.render(r, s), pool)
                        : CompletableFuture.supplyAsync(() -> o.render(r, null), pool);
                byOutput.put(o, f);
            }
            Map<Output, String> out = new LinkedHashMap<>();
            for (Output o : outputs) out.put(o, Parallel.join(byOutput.get(o)));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Map<Output, String> sequential(CompileResult r, Set<Output> outputs, Supplier<PlacementStats> baseline) {
        PlacementStats ua = outputs.stream().anyMatch(o -> o.needsBaseline) ? baseline.get() : null;
        Map<Output, String> out = new LinkedHashMap<>();
        for (Output o : outputs) out.put(o, o.render(r, ua));
        return out;
    }
}
