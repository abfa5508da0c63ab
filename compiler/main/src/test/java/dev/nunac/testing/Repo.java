package dev.nunac.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The repository root (the folder with {@code mvnw}, found by walking up from the working
 * directory) and the shared plan corpus next to it, read in place and never copied.
 */
public final class Repo {
    private Repo() {}

    public static Path root() {
        Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (; p != null; p = p.getParent()) if (Files.isRegularFile(p.resolve("mvnw"))) return p;
        throw new IllegalStateException("no mvnw above the working directory");
    }

    /** {@code ../shared/corpus/<sub>}; skips the calling test when the corpus is absent. */
    public static Path corpus(String sub) {
        Path c = root().resolve("../shared/corpus").resolve(sub).normalize();
        Assumptions.assumeTrue(Files.isDirectory(c), "plan corpus not found at ../shared/corpus/" + sub
                + " (next to the repository); corpus tests skipped");
        return c;
    }

    public static List<Path> files(Path dir, String ext) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> out = new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(ext)).sorted().toList());
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
