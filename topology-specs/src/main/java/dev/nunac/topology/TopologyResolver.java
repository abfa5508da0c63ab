package dev.nunac.topology;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Resolves the {@code --topo} argument: an existing file wins; otherwise the name (with or
 * without {@code .json}) picks a spec bundled in the jar. {@code --topo-override} merges a
 * user's file over the result (JSON merge patch) and validates the merged spec.
 */
public final class TopologyResolver {
    /** Where the bundled specs live on the classpath. */
    public static final String RESOURCE_DIR = "/dev/nunac/topology/specs/";

    /** The specs shipped in {@code topology-specs/} (kept in step by a test). */
    public static final List<String> BUNDLED = List.of("b200", "h200", "mi250x", "mi300x", "mi355x", "nuna-4die");

    private TopologyResolver() {}

    public static List<String> bundledNames() {
        return BUNDLED;
    }

    public static Topology resolve(String topo) {
        return resolve(topo, null);
    }

    /** @param override a merge-patch file, or null */
    public static Topology resolve(String topo, Path override) {
        if (topo == null || topo.isBlank()) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--topo needs a bundled spec name or a file");
        }
        Path p;
        try {
            p = Path.of(topo);
        } catch (java.nio.file.InvalidPathException e) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--topo: not a valid path (" + e.getReason() + ")");
        }
        // Any file but a folder is read (a FIFO or device too: reading it is bounded).
        if (Files.exists(p) && !Files.isDirectory(p)) return TopologyLoader.load(p, override);
        String name = bundledName(topo);
        if (name != null) {
            byte[] bytes = TopologyLoader.readResource(RESOURCE_DIR + name + ".json");
            if (bytes != null) return TopologyLoader.bundled(name + ".json", bytes, override);
        }
        throw new CompileException(ErrorKind.INPUT, SourcePos.of(topo),
                "no such topology: not a file and not a bundled spec (bundled: " + String.join(", ", BUNDLED) + ")");
    }

    /** The bundled spec a --topo argument names, or null. */
    static String bundledName(String topo) {
        String n = topo.endsWith(".json") ? topo.substring(0, topo.length() - 5) : topo;
        return BUNDLED.contains(n) ? n : null;
    }
}
