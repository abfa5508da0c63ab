package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.Repo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/cmake-consumer builds with cmake and the C compiler: its build runs nunac through
 * cmake/Nunac.cmake (here on this test's class path, not the launcher) and compiles against the
 * generated header.
 */
class CmakeConsumerTest {
    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    private static String run(Path dir, List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "timed out: " + cmd);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + out);
        return out;
    }

    @Test
    void consumerBuildsAgainstTheGeneratedHeader(@TempDir Path build) throws Exception {
        assumeTrue(onPath("cmake"), "cmake not on PATH: CMake consumer test skipped");
        assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler on PATH: CMake consumer test skipped");
        Path src = Repo.root().resolve("examples/cmake-consumer");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String nunac = java + ";-cp;" + System.getProperty("java.class.path") + ";dev.nunac.cli.Main";
        run(build, List.of("cmake", "-S", src.toString(), "-B", build.toString(), "-DNUNAC_COMMAND=" + nunac));
        run(build, List.of("cmake", "--build", build.toString()));
        assertTrue(Files.exists(build.resolve("nunac/consumer/placement.h")));
        String out = run(build, List.of(build.resolve("consumer").toString()));
        assertTrue(out.startsWith("ranks 4, threadblocks 12"), out);
    }
}
