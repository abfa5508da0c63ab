package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.Repo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/cmake-consumer builds with cmake and the C compiler: its build runs nunac through
 * cmake/Nunac.cmake (here on this test's class path, not the launcher) and compiles against the
 * generated header. examples/cmake-two-placements, two placements in one target under their own
 * prefixes, builds too, and rebuilds the placements whose inputs changed: the topology spec, the
 * override file, nunac itself.
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

    /** The module maps EMIT names to files by a table of its own; it must name every output nunac has. */
    @Test
    void theModulesOutputTableIsNunacs() throws Exception {
        String module = Files.readString(Repo.root().resolve("cmake/Nunac.cmake"));
        for (dev.nunac.emit.Output o : dev.nunac.emit.Output.values()) {
            assertTrue(module.contains("set(_nunac_emit_file_" + o.id + " " + o.file + ")"), o.id + " -> " + o.file + " missing");
        }
        var ids = java.util.regex.Pattern.compile("set\\(_nunac_emit_ids ([^)]*)\\)").matcher(module);
        assertTrue(ids.find());
        assertEquals(java.util.Arrays.stream(dev.nunac.emit.Output.values()).map(o -> o.id).sorted().toList(),
                java.util.Arrays.stream(ids.group(1).trim().split("\\s+")).sorted().toList());
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "compact {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void consumerBuildsAgainstTheGeneratedHeader(boolean compact, @TempDir Path build) throws Exception {
        assumeTrue(onPath("cmake"), "cmake not on PATH: CMake consumer test skipped");
        assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler on PATH: CMake consumer test skipped");
        Path src = Repo.root().resolve("examples/cmake-consumer");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String nunac = java + ";-cp;" + System.getProperty("java.class.path") + ";dev.nunac.cli.Main";
        run(build, List.of("cmake", "-S", src.toString(), "-B", build.toString(), "-DNUNAC_COMMAND=" + nunac,
                "-DCONSUMER_COMPACT=" + (compact ? "ON" : "OFF")));
        run(build, List.of("cmake", "--build", build.toString()));
        assertTrue(Files.exists(build.resolve("nunac/consumer/placement.h")));
        assertEquals(compact, Files.readString(build.resolve("nunac/consumer/placement.h")).contains("#define NUNAC_PART_RANK -1"));
        String out = run(build, List.of(build.resolve("consumer").toString()));
        assertTrue(out.startsWith("ranks 4, threadblocks 12"), out);
    }

    private static FileTime mtime(Path p) throws Exception {
        return Files.getLastModifiedTime(p);
    }

    /** touch: the file's time becomes now, a second after whatever was written before it. */
    private static void touch(Path p) throws Exception {
        Thread.sleep(1100);
        Files.setLastModifiedTime(p, FileTime.from(Instant.now()));
    }

    private static int placings(String log) {
        return log.split("nunac: placing", -1).length - 1;
    }

    @Test
    void twoPlacementsInOneTargetBuildAndRebuildWhenAnInputChanges(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("cmake"), "cmake not on PATH: CMake two-placement test skipped");
        assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler on PATH: CMake two-placement test skipped");
        Path src = Repo.root().resolve("examples/cmake-two-placements");
        Path build = tmp.resolve("build");
        // The inputs the build reads, copied so that the test may touch and edit them.
        Path topo = tmp.resolve("mi300x.json"), override = tmp.resolve("measured.json"), tool = tmp.resolve("nunac.stamp");
        Files.copy(Repo.root().resolve("topology-specs/mi300x.json"), topo, StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(src.resolve("measured.json"), override);
        Files.writeString(tool, "nunac\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String nunac = java + ";-cp;" + System.getProperty("java.class.path") + ";dev.nunac.cli.Main";
        List<String> configure = new ArrayList<>(List.of("cmake", "-S", src.toString(), "-B", build.toString(),
                "-DNUNAC_COMMAND=" + nunac, "-DNUNAC_DEPENDS=" + tool, "-DTWO_PLACEMENTS_TOPO=" + topo,
                "-DTWO_PLACEMENTS_OVERRIDE=" + override));
        if (onPath("ninja")) configure.addAll(List.of("-G", "Ninja"));
        run(tmp, configure);
        List<String> make = List.of("cmake", "--build", build.toString());
        Path ag = build.resolve("nunac/two_placements/ag/placement.h"), ar = build.resolve("nunac/two_placements/ar/placement.h");
        Path exe = build.resolve("two_placements");

        String log = run(tmp, make);
        assertEquals(2, placings(log), log);
        assertTrue(Files.exists(ag) && Files.exists(ar) && Files.exists(build.resolve("nunac/two_placements/ag/report.txt")));
        String out = run(tmp, List.of(exe.toString()));
        assertTrue(out.startsWith("ag: 4 ranks, 12 threadblocks, policy nap+nar"), out);
        assertTrue(out.contains("\nar: 4 ranks, 16 threadblocks"), out);
        String agText = Files.readString(ag), arText = Files.readString(ar);

        FileTime agAt = mtime(ag), arAt = mtime(ar), exeAt = mtime(exe);
        log = run(tmp, make);
        assertEquals(0, placings(log), "nothing changed, nothing reruns:\n" + log);
        assertEquals(agAt, mtime(ag));
        assertEquals(arAt, mtime(ar));

        // The topology spec: both placements read it, both headers are regenerated, the program relinked.
        touch(topo);
        log = run(tmp, make);
        assertEquals(2, placings(log), log);
        assertNotEquals(agAt, mtime(ag), "ag/placement.h regenerated after the topology was touched");
        assertNotEquals(arAt, mtime(ar), "ar/placement.h regenerated after the topology was touched");
        assertNotEquals(exeAt, mtime(exe), "the program is rebuilt");
        assertEquals(agText, Files.readString(ag), "the same inputs give the same header");
        run(tmp, List.of(exe.toString()));

        // The override file: only the all-reduce reads it; an edited value changes its topology fingerprint.
        agAt = mtime(ag);
        arAt = mtime(ar);
        Thread.sleep(1100);
        Files.writeString(override, Files.readString(override).replace("\"value\": 600", "\"value\": 650"));
        log = run(tmp, make);
        assertEquals(1, placings(log), log);
        assertEquals(agAt, mtime(ag));
        assertNotEquals(arAt, mtime(ar));
        assertNotEquals(fingerprint(arText), fingerprint(Files.readString(ar)), "the override is in the topology's fingerprint");

        // nunac itself (NUNAC_DEPENDS): every placement reruns.
        agAt = mtime(ag);
        arAt = mtime(ar);
        touch(tool);
        log = run(tmp, make);
        assertEquals(2, placings(log), log);
        assertNotEquals(agAt, mtime(ag));
        assertNotEquals(arAt, mtime(ar));
    }

    private static String fingerprint(String header) {
        for (String line : header.split("\n")) {
            if (line.startsWith("#define AR_TOPOLOGY_FINGERPRINT ")) return line;
        }
        throw new AssertionError("no AR_TOPOLOGY_FINGERPRINT in\n" + header);
    }

    /** Mistakes in the calls stop CMake at configure time with a message that names the fix. */
    @Test
    void badCallsFailAtConfigureTime(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("cmake"), "cmake not on PATH: CMake configure test skipped");
        String module = Repo.root().resolve("cmake").toString().replace("\\", "/");
        String plan = Repo.root().resolve("examples/allgather-direct.msccl").toString().replace("\\", "/");
        String[][] cases = {
            {"nunac_add_placement(TARGET app PLAN " + plan + " TOPO mi300x)\nnunac_add_placement(TARGET app PLAN " + plan + " TOPO h200)",
                "already has a placement without PREFIX; give each placement of a target its own PREFIX"},
            {"nunac_add_placement(TARGET app PREFIX a PLAN " + plan + " TOPO mi300x)\nnunac_add_placement(TARGET app PREFIX a PLAN " + plan
                + " TOPO h200)", "already has a placement with PREFIX a"},
            {"nunac_add_placement(TARGET app PREFIX 9x PLAN " + plan + " TOPO mi300x)", "PREFIX must be a C identifier"},
            {"nunac_add_placement(TARGET app PLAN " + plan + " TOPO mi300x EMIT pdf)", "EMIT: unknown output 'pdf'"},
        };
        int i = 0;
        for (String[] c : cases) {
            Path dir = tmp.resolve("p" + i++);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("CMakeLists.txt"), "cmake_minimum_required(VERSION 3.25)\nproject(bad LANGUAGES NONE)\n"
                    + "list(APPEND CMAKE_MODULE_PATH \"" + module + "\")\ninclude(Nunac)\nadd_custom_target(app)\n" + c[0] + "\n");
            Process p = new ProcessBuilder("cmake", "-S", dir.toString(), "-B", dir.resolve("b").toString()).redirectErrorStream(true)
                    .start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertNotEquals(0, p.exitValue(), log);
            assertTrue(log.replaceAll("\\s+", " ").contains(c[1]), c[1] + "\n" + log);
        }
    }
}
