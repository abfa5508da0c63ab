package dev.nunac.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Paths the tests need, found from the working directory (the module folder under Maven). */
public final class TestPaths {
    private TestPaths() {}

    /** The folder of the module under test (Surefire's working directory). */
    public static Path moduleDir() {
        return Path.of("").toAbsolutePath();
    }

    /** The repository root: the nearest folder upwards that holds the Maven Wrapper. */
    public static Path repoRoot() {
        for (Path p = moduleDir(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isDirectory(p.resolve("examples"))) return p;
        }
        throw new IllegalStateException("cannot find the repository root above " + moduleDir());
    }

    public static Path examples() {
        return repoRoot().resolve("examples");
    }

    /** The shared corpus of real plans, beside the repository; may be absent. */
    public static Path corpus() {
        return repoRoot().resolve("../shared/corpus").normalize();
    }
}
