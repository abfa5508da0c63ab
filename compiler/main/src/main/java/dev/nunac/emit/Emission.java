package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Parallel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Renders the chosen outputs of one compilation. Each output is a pure function of the result,
 * so they render side by side on the machine's cores: on large plans the JSON and the header
 * each take a comparable share of the compile. The texts do not depend on the order in which
 * they finish.
 */
public final class Emission {
    private Emission() {}

    /** The rendered texts, by output, in the set's order. Errors of any output are rethrown as they were. */
    public static Map<Output, String> render(CompileResult r, Set<Output> outputs) {
        return render(r, outputs, EmitSettings.DEFAULT);
    }

    /** The same, written as {@code settings} say (the header's symbol prefix). */
    public static Map<Output, String> render(CompileResult r, Set<Output> outputs, EmitSettings settings) {
        int threads = Math.min(outputs.size(), Runtime.getRuntime().availableProcessors());
        Map<Output, String> out = new LinkedHashMap<>();
        if (threads <= 1) {
            for (Output o : outputs) out.put(o, o.render(r, settings));
            return out;
        }
        ExecutorService pool = Parallel.pool("nunac-emit", threads);
        try {
            Map<Output, CompletableFuture<String>> byOutput = new LinkedHashMap<>();
            for (Output o : outputs) byOutput.put(o, CompletableFuture.supplyAsync(() -> o.render(r, settings), pool));
            for (Output o : outputs) out.put(o, Parallel.join(byOutput.get(o)));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
