package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.IOException;
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
 * target first (an output added as {@link Content} is written there as it is made, never held
 * whole, and every file's SHA-256 is taken from the bytes on their way), and only when all are
 * written are they renamed into place
 * ({@link SetReplacement}: a rename that fails puts back the outputs already replaced). A
 * failure while writing leaves the previous outputs untouched, no temporary files behind, and no
 * output folder that this write created. What a rename
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

    /** An output written as it is made, straight into its temporary file: no text of it is held whole. */
    @FunctionalInterface
    public interface Content {
        void write(TextOut out);
    }

    private final Map<String, Content> contents = new LinkedHashMap<>();
    private final Map<String, String> files = new LinkedHashMap<>();
    private boolean manifest;

    /** Ends the set with {@link #MANIFEST}, written last. */
    public OutputFiles withManifest() {
        manifest = true;
        return this;
    }

    public OutputFiles add(String name, String content) {
        files.put(name, content);
        contents.put(name, out -> out.append(content));
        return this;
    }

    /** An output that {@code content} writes while the set is written. */
    public OutputFiles add(String name, Content content) {
        files.remove(name);
        contents.put(name, content);
        return this;
    }

    /** The outputs added as text, by name (those added as {@link Content} are not held). */
    public Map<String, String> files() {
        return java.util.Collections.unmodifiableMap(files);
    }

    /** Writes into {@code dir}, creating it if its parent exists. Returns the paths written. */
    public List<Path> writeTo(Path dir) {
        return writeTo(dir, OutputFiles::move);
    }

    /** As {@link #writeTo(Path)}, renaming with {@code mover} (tests make renames fail). */
    List<Path> writeTo(Path dir, SetReplacement.Mover mover) {
        List<String> names = new ArrayList<>(contents.keySet());
        if (manifest) {
            if (contents.containsKey(MANIFEST)) throw new IllegalArgumentException(MANIFEST + " is the manifest's name");
            names.add(MANIFEST);
        }
        boolean created = prepare(dir);
        boolean done = false;
        List<Path> temps = new ArrayList<>();
        try {
            Map<String, Path> targets = new LinkedHashMap<>();
            for (String name : names) targets.put(name, target(dir.resolve(name)));
            Set<String> ours = new TreeSet<>(names);
            for (Output o : Output.values()) ours.add(o.file);
            ours.add(MANIFEST);
            TempFiles.removeStale(dir, ours, Instant.now());
            for (String name : names) {
                Path target = targets.get(name);
                try {
                    temps.add(TempFiles.create(target.toAbsolutePath().getParent(), target.getFileName().toString()));
                } catch (IOException e) {
                    throw new CompileException(ErrorKind.INPUT, SourcePos.of(dir.resolve(name).toString()),
                            "cannot write output: cannot create a file beside it: " + reason(e) + "; no output was changed");
                }
            }
            List<Content> outputs = List.copyOf(contents.values());
            String[] digests = writeAll(dir, names, outputs, temps);
            if (manifest) {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < outputs.size(); i++) b.append(digests[i]).append("  ").append(names.get(i)).append('\n');
                String text = b.toString();
                write(dir.resolve(MANIFEST), temps.get(outputs.size()), out -> out.append(text));
            }
            List<Path> displays = names.stream().map(dir::resolve).toList();
            List<Path> written = SetReplacement.replace(displays, temps, List.copyOf(targets.values()), mover, manifest);
            done = true;
            return written;
        } finally {
            for (Path t : temps) {
                try {
                    Files.deleteIfExists(t);
                } catch (IOException ignored) {
                    // best effort: the temporary file is hidden, named after its target, and removed by a later run
                }
            }
            if (created && !done) {
                try {
                    Files.deleteIfExists(dir); // the folder this run made, empty again: a failed run leaves none
                } catch (IOException ignored) {
                    // not empty (someone else's file): leave it
                }
            }
        }
    }

    /**
     * Writes {@code outputs} into their temporary files side by side on the machine's cores (on a
     * large plan the whole-plan JSON and header each take a comparable share of the compile) and
     * returns each file's SHA-256, taken from the bytes as they are written. A failure is that of
     * the first output in order that failed, whichever finished first.
     */
    private static String[] writeAll(Path dir, List<String> names, List<Content> outputs, List<Path> temps) {
        int n = outputs.size();
        String[] digests = new String[n];
        RuntimeException[] failures = new RuntimeException[n];
        java.util.function.IntConsumer one = i -> {
            try {
                digests[i] = write(dir.resolve(names.get(i)), temps.get(i), outputs.get(i));
            } catch (RuntimeException e) {
                failures[i] = e;
            }
        };
        int threads = Math.min(n, Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            for (int i = 0; i < n; i++) one.accept(i);
        } else {
            java.util.concurrent.ExecutorService pool = dev.nunac.driver.Parallel.pool("nunac-write", threads);
            try {
                List<java.util.concurrent.CompletableFuture<Void>> futures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int k = i;
                    futures.add(java.util.concurrent.CompletableFuture.runAsync(() -> one.accept(k), pool));
                }
                for (var f : futures) dev.nunac.driver.Parallel.join(f);
            } finally {
                pool.shutdownNow();
            }
        }
        for (RuntimeException e : failures) if (e != null) throw e;
        return digests;
    }

    /** Writes {@code content} into {@code tmp}, the temporary file of {@code display}; returns its SHA-256. */
    private static String write(Path display, Path tmp, Content content) {
        java.security.MessageDigest md = digest();
        try (java.io.OutputStream os = Files.newOutputStream(tmp, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
            TextOut out = new TextOut((bytes, length) -> {
                md.update(bytes, 0, length);
                os.write(bytes, 0, length);
            });
            content.write(out);
            out.finish();
        } catch (IOException e) {
            throw cannotWrite(display, e);
        } catch (java.io.UncheckedIOException e) {
            throw cannotWrite(display, e.getCause());
        }
        return java.util.HexFormat.of().formatHex(md.digest());
    }

    private static CompileException cannotWrite(Path display, IOException e) {
        return new CompileException(ErrorKind.INPUT, SourcePos.of(display.toString()),
                "cannot write output: " + reason(e) + "; no output was changed");
    }

    static String sha256(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(digest().digest(bytes));
    }

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

    /** Makes {@code dir} ready to write into; returns whether it was created. */
    private static boolean prepare(Path dir) {
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
            return true;
        }
        if (!Files.isWritable(dir)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "output folder is not writable");
        }
        return false;
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
