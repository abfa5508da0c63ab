package dev.nunac.cli;

import java.util.Locale;
import java.util.Map;

/** `--timings`: where a compile spent its time, per stage, on standard error. */
final class Timings {
    private Timings() {}

    static void print(Io io, long topologyNanos, long parseNanos, Map<String, Long> passes, long pipelineAndBaselineNanos,
                      long emitNanos) {
        io.err().printf(Locale.ROOT, "%-22s %9.1f ms%n", "topology", topologyNanos / 1e6);
        io.err().printf(Locale.ROOT, "%-22s %9.1f ms%n", "parse", parseNanos / 1e6);
        long inPasses = 0;
        for (var e : passes.entrySet()) {
            io.err().printf(Locale.ROOT, "%-22s %9.1f ms%n", e.getKey(), e.getValue() / 1e6);
            inPasses += e.getValue();
        }
        io.err().printf(Locale.ROOT, "%-22s %9.1f ms%n", "baseline (ua)", (pipelineAndBaselineNanos - inPasses) / 1e6);
        io.err().printf(Locale.ROOT, "%-22s %9.1f ms%n", "emit + write", emitNanos / 1e6);
    }
}
