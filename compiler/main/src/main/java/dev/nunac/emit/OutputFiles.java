package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a set of output files all-or-nothing: every file goes to a temporary file beside its
 * target first, and only when all are written are they renamed into place
 * ({@link SetReplacement}: a rename that fails puts back the outputs already replaced). A
 * failure while writing leaves the previous outputs untouched and no temporary files behind. What a rename
 * would destroy or could not replace is refused before anything is written: a folder, device,
 * FIFO or socket at an output's path (a symbolic link to a regular file is followed: the file
 * it names is replaced, the link stays). Temporary files of ours that a killed run left behind
 * are removed ({@link TempFiles#removeStale}).
 */
public final class OutputFiles {
    /**
     * The file a set {@link #withManifest written with a manifest} ends with: each output's
     * SHA-256 and name, as {@code sha256sum} writes them. It is renamed into place after every
     * output, so a reader can always tell a complete set: the manifest is there and every file it
     * lists matches it ({@code sha256sum -c outputs.sha256}). A run killed between the renames,
     * or one whose failure could not put every old file back, leaves files the manifest does not match.
     */
    public static final String MANIFEST = "outputs.sha256";

    private final Map<String, String> files = new LinkedHashMap<>();
    private boolean manifest;

    /** Ends the set with {@link #MANIFEST}, written last. */
    public OutputFiles withManifest() {
        manifest = true;
        return this;
    }

    public OutputFiles add(String name, String content) {
        files.put(name, content);
        return this;
    }

    public Map<String, String> files() {
        return java.util.Collections.unmodifiableMap(files);
    }

    /** Writes into {@code dir}, creating it if its parent exists. Returns the paths written. */
    public List<Path> writeTo(Path dir) {
        return writeTo(dir, OutputFiles::move);
    }

    /** As {@link #writeTo(Path)}, renaming with {@code mover} (tests make renames fail). */
    List<Path> writeTo(Path dir, SetReplacement.Mover mover) {
        Map<String, String> set = new LinkedHashMap<>(files);
        if (manifest) {
            if (set.containsKey(MANIFEST)) throw new IllegalArgumentException(MANIFEST + " is the manifest's name");
            set.put(MANIFEST, manifest(files));
        }
        prepare(dir);
        Map<String, Path> targets = new LinkedHashMap<>();
        for (String name : set.keySet()) targets.put(name, target(dir.resolve(name)));
        Set<String> ours = new TreeSet<>(set.keySet());
        for (Output o : Output.values()) ours.add(o.file);
        ours.add(MANIFEST);
        TempFiles.removeStale(dir, ours, Instant.now());
        List<Path> temps = new ArrayList<>();
        try {
            for (Map.Entry<String, String> f : set.entrySet()) {
                Path target = targets.get(f.getKey());
                Path display = dir.resolve(f.getKey());
                Path tmp;
                try {
                    tmp = TempFiles.create(target.toAbsolutePath().getParent(), target.getFileName().toString());
                } catch (IOException e) {
                    throw new CompileException(ErrorKind.INPUT, SourcePos.of(display.toString()),
                            "cannot write output: cannot create a file beside it: " + reason(e) + "; no output was changed");
                }
                temps.add(tmp);
                try {
                    Files.writeString(tmp, f.getValue(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new CompileException(ErrorKind.INPUT, SourcePos.of(display.toString()),
                            "cannot write output: " + reason(e) + "; no output was changed");
                }
            }
            List<Path> displays = set.keySet().stream().map(dir::resolve).toList();
            return SetReplacement.replace(displays, temps, List.copyOf(targets.values()), mover, manifest);
        } finally {
            for (Path t : temps) {
                try {
                    Files.deleteIfExists(t);
                } catch (IOException ignored) {
                    // best effort: the temporary file is hidden, named after its target, and removed by a later run
                }
            }
        }
    }

    /**
     * {@code sha256sum}'s lines for {@code files}, in the order they are written: deterministic, as
     * the files are. The digests are taken side by side (the whole-plan JSON and header of a
     * large plan are each tens of MB), then listed in order.
     */
    static String manifest(Map<String, String> files) {
        List<Map.Entry<String, String>> list = List.copyOf(files.entrySet());
        String[] digests = new String[list.size()];
        java.util.stream.IntStream.range(0, list.size()).parallel()
                .forEach(i -> digests[i] = sha256(list.get(i).getValue()));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < list.size(); i++) b.append(digests[i]).append("  ").append(list.get(i).getKey()).append('\n');
        return b.toString();
    }

    static String sha256(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(digest().digest(bytes));
    }

    /**
     * The SHA-256 of {@code text}'s UTF-8 bytes, encoded a slice at a time rather than as one
     * array as large as the text (hundreds of MB for a large plan's outputs). A slice never ends
     * between the two halves of a surrogate pair, so the bytes are those of the whole text.
     */
    static String sha256(String text) {
        java.security.MessageDigest md = digest();
        for (int i = 0, n = text.length(); i < n; ) {
            int j = Math.min(n, i + SLICE);
            if (j < n && Character.isHighSurrogate(text.charAt(j - 1))) j++;
            md.update(text.substring(i, j).getBytes(StandardCharsets.UTF_8));
            i = j;
        }
        return java.util.HexFormat.of().formatHex(md.digest());
    }

    private static final int SLICE = 1 << 20;

    private static java.security.MessageDigest digest() {
        try {
            return java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * The path to rename onto for an output at {@code p}: {@code p} itself when nothing or a
     * regular file is there, the file a symbolic link names when it names a regular file; an
     * error for anything else, which a rename would replace.
     */
    private static Path target(Path p) {
        BasicFileAttributes here;
        try {
            here = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return p; // nothing there (or nothing we can see): the rename will tell
        }
        if (here.isRegularFile()) return p;
        if (here.isDirectory()) throw refused(p, "a folder of that name is in the way");
        if (!here.isSymbolicLink()) throw refused(p, "it is not a regular file (a device, FIFO or socket), which nunac never replaces");
        try {
            Path real = p.toRealPath();
            if (Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) return real;
            throw refused(p, "it is a symbolic link to " + (Files.isDirectory(real) ? "a folder" : "something other than a regular file")
                    + ", which nunac never replaces");
        } catch (IOException e) {
            throw refused(p, "it is a symbolic link to nothing, which nunac never replaces");
        }
    }

    private static CompileException refused(Path p, String why) {
        return new CompileException(ErrorKind.INPUT, SourcePos.of(p.toString()), "cannot write output: " + why);
    }

    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Refuses now what {@link #writeTo} would refuse about {@code dir} and the outputs {@code names}
     * (a folder that is a file or a link to nothing, a device, FIFO or folder at an output's path),
     * creating nothing: a command that computes for seconds before it writes fails before it starts.
     */
    public static void checkWritable(Path dir, java.util.Collection<String> names) {
        if (Files.isDirectory(dir)) {
            for (String n : names) target(dir.resolve(n));
            return;
        }
        String name = dir.toString();
        if (Files.isSymbolicLink(dir) && !Files.exists(dir)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the output folder: it is a symbolic link to nothing");
        }
        if (Files.exists(dir)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "output folder is a file");
        Path parent = dir.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the output folder: its parent folder does not exist");
        }
    }

    private static void prepare(Path dir) {
        String name = dir.toString();
        if (Files.isSymbolicLink(dir) && !Files.exists(dir)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the output folder: it is a symbolic link to nothing");
        }
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

    /** The operating system's reason, never a bare path or a Java class name. */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.charset.CharacterCodingException) return "its text is not valid Unicode (a lone surrogate)";
        if (e instanceof java.nio.file.FileSystemException fse) {
            if (fse.getReason() != null) return fse.getReason();
            if (e instanceof java.nio.file.NoSuchFileException) return "no such file or folder";
            if (e instanceof java.nio.file.FileAlreadyExistsException) return "something of that name is in the way";
            if (e instanceof java.nio.file.NotDirectoryException) return "not a folder";
            if (e instanceof java.nio.file.DirectoryNotEmptyException) return "a folder of that name is in the way";
            return "the file system refused it";
        }
        return e.getMessage() == null ? "input/output error" : e.getMessage();
    }
}
