package dev.nunac.topology;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.topology.json.JNode;
import dev.nunac.topology.json.JsonTree;
import dev.nunac.topology.json.MergePatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
        return JsonTree.parse(displayName, bytes);
    }

    private static Topology build(JNode base, Path override) {
        JNode root = base;
        if (override != null) {
            JNode patch = tree(override.toString(), read(override));
            if (!(patch instanceof JNode.JObject)) {
                throw new CompileException(ErrorKind.INPUT, patch.pos(), "$: an override must be a JSON object (a merge patch)");
            }
            root = MergePatch.apply(base, patch);
        }
        return SpecReader.read(root, new Diagnostics());
    }

    /**
     * The file's bytes within {@link JsonTree#MAX_BYTES}, counted as they are read: the size a
     * device or FIFO reports says nothing about what reading it yields.
     */
    /** Seconds a spec that is a FIFO or device may take to deliver its bytes. */
    static final int MAX_SECONDS = 5;

    static byte[] read(Path file) {
        try {
            if (Files.isDirectory(file)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(file.toString()), "is a directory, not a topology spec");
            long size = Files.size(file);
            if (size > JsonTree.MAX_BYTES) throw tooLarge(file, "is " + size + " bytes");
            byte[] bytes;
            if (Files.isRegularFile(file)) {
                try (InputStream in = Files.newInputStream(file)) {
                    bytes = in.readNBytes(JsonTree.MAX_BYTES + 1);
                }
            } else {
                // A FIFO or device may have no writer or trickle: it gets a fixed time, like the spec's other bounds.
                bytes = dev.nunac.diag.DeadlineRead.read(file, JsonTree.MAX_BYTES, MAX_SECONDS, "");
            }
            if (bytes.length > JsonTree.MAX_BYTES) throw tooLarge(file, "is more than " + JsonTree.MAX_BYTES + " bytes");
            return bytes;
        } catch (NoSuchFileException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file.toString()), "no such file");
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file.toString()), "cannot read: " + e.getMessage());
        }
    }


    private static CompileException tooLarge(Path file, String what) {
        return new CompileException(ErrorKind.INPUT, SourcePos.of(file.toString()), "topology spec " + what + "; the limit is "
                + JsonTree.MAX_BYTES);
    }

    static byte[] readResource(String resource) {
        try (InputStream in = TopologyLoader.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readNBytes(JsonTree.MAX_BYTES + 1);
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(resource), "cannot read bundled spec: " + e.getMessage());
        }
    }
}
