package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a set of output files all-or-nothing: every file goes to a temporary file in the
 * target folder first, and only when all are written are they renamed into place. A failure
 * while writing leaves the previous outputs untouched and no temporary files behind; what could
 * make a rename in the same folder fail (a folder in the target's place) is refused before
 * anything is written.
 */
public final class OutputFiles {
    private final Map<String, String> files = new LinkedHashMap<>();

    public OutputFiles add(String name, String content) {
        files.put(name, content);
        return this;
    }

    public Map<String, String> files() {
        return java.util.Collections.unmodifiableMap(files);
    }

    /** Writes into {@code dir}, creating it if its parent exists. Returns the paths written. */
    public List<Path> writeTo(Path dir) {
        prepare(dir);
        for (String name : files.keySet()) {
            if (Files.isDirectory(dir.resolve(name))) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(dir.resolve(name).toString()),
                        "cannot write output: a folder of that name is in the way");
            }
        }
        List<Path> temps = new ArrayList<>();
        List<Path> written = new ArrayList<>();
        try {
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path tmp = Files.createTempFile(dir, "." + f.getKey() + ".", ".tmp");
                temps.add(tmp);
                Files.writeString(tmp, f.getValue(), StandardCharsets.UTF_8);
            }
            int i = 0;
            for (String name : files.keySet()) {
                Path target = dir.resolve(name);
                move(temps.get(i++), target);
                written.add(target);
            }
            return written;
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(dir.toString()), "cannot write outputs: " + reason(e));
        } finally {
            for (Path t : temps) {
                try {
                    Files.deleteIfExists(t);
                } catch (IOException ignored) {
                    // best effort: the temporary file is hidden and named after its target
                }
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void prepare(Path dir) {
        String name = dir.toString();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "output folder is a file");
        }
        if (!Files.exists(dir)) {
            Path parent = dir.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the output folder: its parent folder does not exist");
            }
            try {
                Files.createDirectory(dir);
            } catch (IOException e) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the output folder: " + reason(e));
            }
        }
        if (!Files.isWritable(dir)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "output folder is not writable");
        }
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) return fse.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
