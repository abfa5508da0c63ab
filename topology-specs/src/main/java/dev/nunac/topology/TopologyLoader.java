package dev.nunac.topology;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonLimits;
import dev.nunac.json.JsonReader;
import dev.nunac.json.MergePatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Reads topology specs from files, the classpath or bytes, optionally with a JSON merge patch
 * of the user's measured values on top. Every failure is a {@code CompileException(INPUT)}
 * whose messages carry {@code file:line:col} and the JSON path.
 */
public final class TopologyLoader {
    private TopologyLoader() {}

    public static Topology load(Path file) {
        return load(file, null);
    }

    /** Loads {@code file}, with {@code override} (may be null) merged over it before validation. */
    public static Topology load(Path file, Path override) {
        return build(tree(file.toString(), read(file)), override);
    }

    /** Parses a spec held in memory; {@code displayName} is the file name used in messages. */
    public static Topology parse(String displayName, byte[] bytes) {
        return build(tree(displayName, bytes), null);
    }

    /** Loads a spec given as bytes with an optional override file. */
    public static Topology parse(String displayName, byte[] bytes, Path override) {
        return build(tree(displayName, bytes), override);
    }

    /** The positioned JSON tree of a document, for tools that print or merge it. */
    public static JNode tree(String displayName, byte[] bytes) {
        return JsonReader.parse(displayName, bytes, LIMITS);
    }

    /**
     * A bundled spec, with an optional override. A bundled spec is part of the build and
     * {@code BundledSpecsTest} holds it to the schema, so only an override makes it pay for the
     * schema check.
     */
    static Topology bundled(String displayName, byte[] bytes, Path override) {
        return build(tree(displayName, bytes), override, override != null);
    }

    private static Topology build(JNode base, Path override) {
        return build(base, override, true);
    }

    private static Topology build(JNode base, Path override, boolean schema) {
        JNode root = base;
        if (override != null) {
            JNode patch = tree(override.toString(), read(override));
            if (!(patch instanceof JNode.JObject)) {
                throw new CompileException(ErrorKind.INPUT, patch.pos(), "$: an override must be a JSON object (a merge patch)");
            }
            root = MergePatch.apply(base, patch);
        }
        return SpecReader.read(root, new Diagnostics(), schema);
    }

    /** The bounds of a topology spec and of an override. */
    static final JsonLimits LIMITS = JsonLimits.DOCUMENT.of("topology spec", JsonLimits.DOCUMENT.maxBytes());

    static byte[] read(Path file) {
        return JsonReader.bytes(file, LIMITS);
    }

    static byte[] readResource(String resource) {
        try (InputStream in = TopologyLoader.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readNBytes((int) LIMITS.maxBytes() + 1);
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(resource), "cannot read bundled spec: " + e.getMessage());
        }
    }
}
