package dev.nunac.cli;

import java.util.Locale;
import java.util.Map;

/** `--timings`: where a compile spent its time, per stage, on standard error. */
final class Timings {
    private Timings() {}

    /** The topology loads while the plan parses; the emit stage renders the outputs side by side, the UA baseline placement among them. */
    static void print(Io io, long topologyNanos, long parseNanos, Map<String, Long> passes, long emitNanos) {
        io.err().printf(Locale.ROOT, "%-24s %9.1f ms%n", "topology", topologyNanos / 1e6);
        io.err().printf(Locale.ROOT, "%-24s %9.1f ms%n", "parse", parseNanos / 1e6);
        for (var e : passes.entrySet()) io.err().printf(Locale.ROOT, "%-24s %9.1f ms%n", e.getKey(), e.getValue() / 1e6);
        io.err().printf(Locale.ROOT, "%-24s %9.1f ms%n", "emit + baseline + write", emitNanos / 1e6);
    }
}
