package dev.nunac.e2e;

import dev.nunac.diag.SourcePos;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An inference workload for {@code nunac e2e} (docs/e2e.md): phases (prefill, decode), each a
 * compute time and the collectives it issues, with their plan, size and count per phase.
 */
public record Workload(String name, String description, List<Phase> phases) {
    public record Phase(String name, double computeUs, String computeSource, List<Collective> collectives, SourcePos pos) {}

    /** {@code count} runs of {@code plan} (resolved against the workload file's folder) at {@code bytes}. */
    public record Collective(Path plan, Map<String, String> defines, long bytes, long count, String note, SourcePos pos) {}
}
