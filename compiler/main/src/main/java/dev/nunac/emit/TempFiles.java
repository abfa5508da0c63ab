package dev.nunac.emit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary files outputs are written to before the rename: {@code .NAME.PID-RANDOM.tmp}
 * beside the target, created like any new file (so the umask decides their mode, not a
 * private 0600), and found again when a killed run left them behind.
 */
final class TempFiles {
    /** Ours: {@code .NAME.PID-RANDOM.tmp}, or {@code .NAME.DIGITS.tmp} as earlier versions named them. */
    private static final Pattern OURS = Pattern.compile("\\.(.+)\\.([0-9]{1,20})(?:-[0-9a-z]+)?\\.tmp");
    /** A temporary file lives for the seconds a write takes; one this old whose process is gone is stale. */
    static final Duration STALE_AFTER = Duration.ofMinutes(1);

    private TempFiles() {}

    /** A fresh name of our naming for {@code name} in {@code dir}; nothing is created. */
    static Path name(Path dir, String name) {
        String r = Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
        return dir.resolve("." + name + "." + ProcessHandle.current().pid() + "-" + r + ".tmp");
    }

    /** Creates an empty temporary file for {@code name} in {@code dir}, with the mode a new file gets. */
    static Path create(Path dir, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = name(dir, name);
            try {
                OutputStream out = Files.newOutputStream(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                out.close();
                return p;
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 8) throw e;
            }
        }
    }

    /**
     * Removes the stale temporary files of {@code names} from {@code dir}: regular files of our
     * naming, older than {@link #STALE_AFTER}, whose process is no longer running. Best effort: a
     * file that cannot be removed is left, and a run in progress (its process alive, or its file
     * fresh, as on another machine sharing the folder) is never touched.
     */
    static void removeStale(Path dir, Collection<String> names, Instant now) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, ".*.tmp")) {
            for (Path p : ds) {
                Matcher m = OURS.matcher(p.getFileName().toString());
                if (!m.matches() || !names.contains(m.group(1)) || running(m.group(2))) continue;
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isRegularFile() && a.lastModifiedTime().toInstant().isBefore(now.minus(STALE_AFTER))) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Cleaning up is a courtesy: it never fails a run.
        }
    }

    private static boolean running(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false; // an earlier version's random number, not a process id
        }
    }
}
