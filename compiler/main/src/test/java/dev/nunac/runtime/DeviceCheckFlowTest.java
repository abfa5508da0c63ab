package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.Repo;
import dev.nunac.topology.Basis;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole device check as a lent GPU machine would run it, on the fake CUDA driver: {@code
 * device-check.sh --prepare DIR} here (nunac through this JVM's class path), then {@code --run
 * DIR} with no {@code java} on the PATH, building the runtime from DIR's sources with CMake. The
 * fake device calls itself an NVIDIA H200 with 132 SMs, so the name match, the probe, the
 * empty-step overhead and every row run; the run's table is printed into the build log.
 */
class DeviceCheckFlowTest {
    @TempDir
    Path work;

    @Test
    void prepareHereThenRunWithoutJavaOnTheFakeDriver() throws Exception {
        Path script = Repo.root().resolve("runtime-shim/device-check.sh");
        assumeTrue(Files.isRegularFile(Repo.root().resolve("runtime-shim/target/native/nunart-run")),
                "the native runtime was not built here (no cmake or C compiler): the device-check flow is not testable");
        Path dir = work.resolve("check"), out = work.resolve("out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // C1 alone, as the nunac launcher runs a compile: 30 short JVMs start sooner.
        String nunac = java + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp " + System.getProperty("java.class.path") + " dev.nunac.cli.Main";
        Result prep = bash(Map.of("NUNAC_COMMAND", nunac),
                null, script.toString(), "--prepare", dir.toString());
        assertEquals(0, prep.exit(), prep.out());
        assertTrue(Files.isRegularFile(dir.resolve("device-check.sh")) && Files.isRegularFile(dir.resolve("runtime/CMakeLists.txt")), prep.out());
        // By default for both NVIDIA specs, so one folder serves H100, H200 and B200 machines.
        for (String t : new String[] {"h200", "b200"}) {
            assertEquals(15, Repo.files(dir.resolve(t).resolve("tables"), ".txt").size(), prep.out());
            assertTrue(Files.isRegularFile(dir.resolve(t).resolve("empty-steps.txt")), prep.out());
        }

        Path bin = javaFreePath();
        Map<String, String> env = Map.of(
                "NUNART_CUDA_LIBRARY", out.resolve("build/libnunart-mock-cuda.so").toString(),
                "NUNART_NVRTC_LIBRARY", out.resolve("build/libnunart-mock-nvrtc.so").toString(),
                "NUNART_MOCK_UNITS", "132", "NUNART_MOCK_CC", "9", "NUNART_MOCK_NAME", "NVIDIA H200");
        // The copied script, as on the device; few launches: the fake interprets every element.
        Result run = bash(env, bin, dir.resolve("device-check.sh").toString(), "--run", dir.toString(), "--out", out.toString(), "--launches", "10");
        System.out.println(run.out());
        assertEquals(0, run.exit(), run.out());
        String o = run.out();
        assertTrue(o.contains("java on the PATH: no"), o);
        assertTrue(o.contains("runtime built with CMake"), o);
        assertTrue(o.contains("device: NVIDIA H200 (cc 9.0, 132 SMs"), o);
        assertTrue(o.contains("topology h200 (from the GPU's name): 15 tables"), o);
        assertTrue(o.contains("platform: NVIDIA driver") && o.contains("CUDA 13.0") && o.contains("NVRTC 13.0"), o);
        assertTrue(o.contains("compute-sanitizer racecheck on ") && o.contains("compute-sanitizer synccheck on "), o);
        List<String> rows = o.lines().filter(l -> l.matches("^[a-z-]+(\\+nar|-ua|-nap|-steps|-full) .*")).toList();
        assertEquals(17, rows.size(), o);
        for (String r : rows) assertTrue(r.split(" +")[1].equals("1.000"), "fidelity below 1.000: " + r);
        assertTrue(rows.get(0).startsWith("empty-steps ") && rows.get(0).contains("132 SMs, max 131/132"), rows.get(0));
        assertTrue(rows.get(1).startsWith("empty-steps-full ") && rows.get(1).contains("132 SMs"), rows.get(1));
        // The probe's fragment applies to the h200 spec as a measured memory latency.
        Path override = out.resolve("h200-measured.json");
        Topology t = TopologyResolver.resolve("h200", override);
        assertEquals(Basis.MEASURED, t.memory().latencyNs().basis());
        assertTrue(t.memory().latencyNs().value() > 0);
        assertTrue(Files.readString(out.resolve("probe.csv")).lines().count() == 1 + 132 * 64);
    }

    /**
     * A run where the fake driver puts every block on SM 0 fails: fidelity below 1.000 is an
     * error. The runtime is built with the C compiler alone here (no CMake), as on a machine
     * whose CMake is missing or too old.
     */
    @Test
    void fidelityBelowOneFailsTheRun() throws Exception {
        Path shim = Repo.root().resolve("runtime-shim");
        assumeTrue(Files.isRegularFile(shim.resolve("target/native/nunart-run")), "the native runtime was not built here");
        Path dir = work.resolve("one"), src = dir.resolve("runtime");
        Files.createDirectories(dir.resolve("h200/tables"));
        Files.writeString(dir.resolve("manifest"), "topologies=h200\n");
        Path custom = shim.resolve("src/test/native/tables/custom-deps.txt");
        Files.copy(custom, dir.resolve("h200/tables/custom-deps-nap+nar.txt"));
        Files.copy(custom, dir.resolve("h200/empty-steps.txt"));
        for (String d : new String[] {"include", "tools", "src/kernels", "src/test/native"}) copyFiles(shim.resolve(d), src.resolve(d));
        copyFiles(shim.resolve("src"), src.resolve("src"));
        Map<String, String> env = Map.of(
                "NUNART_CUDA_LIBRARY", dir.resolve("out/build/libnunart-mock-cuda.so").toString(),
                "NUNART_NVRTC_LIBRARY", dir.resolve("out/build/libnunart-mock-nvrtc.so").toString(),
                "NUNART_MOCK_UNITS", "8", "NUNART_MOCK_CC", "10", "NUNART_MOCK_NAME", "NVIDIA H200", "NUNART_MOCK_LOCATION", "0");
        Result run = bash(env, javaFreePath(), shim.resolve("device-check.sh").toString(), "--run", dir.toString(), "--build", "cc", "--launches", "2");
        assertEquals(1, run.exit(), run.out());
        assertTrue(run.out().contains("runtime built with cc alone"), run.out());
        assertTrue(run.out().contains("fidelity: 0.333 (1/3 threadblocks ran on their planned CU, device readback), below 1.000"), run.out());
    }

    /** The regular files of one folder (not below it). */
    private static void copyFiles(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) Files.copy(f, to.resolve(f.getFileName()));
        }
    }

    private record Result(int exit, String out) {}

    private Result bash(Map<String, String> env, Path path, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of("bash"), Stream.of(args)).toList()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("NUNART_") || k.startsWith("NUNAC_"));
        pb.environment().putAll(env);
        if (path != null) {
            pb.environment().put("PATH", path.toString());
            pb.environment().remove("JAVA_HOME");
        }
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        boolean done = p.waitFor(300, TimeUnit.SECONDS);
        if (!done) p.destroyForcibly();
        assertTrue(done, "device-check.sh did not finish in 300 s");
        return new Result(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * A PATH of one folder with links to every program on this PATH except the JDK's, and a
     * stand-in compute-sanitizer that runs its program and reports no errors, so that the
     * sanitizer row's plumbing runs too.
     */
    private Path javaFreePath() throws IOException {
        Path bin = work.resolve("bin-" + System.nanoTime());
        Files.createDirectories(bin);
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path dir = Path.of(d.isEmpty() ? "." : d);
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    String n = f.getFileName().toString();
                    if (n.startsWith("java") || n.equals("jar") || n.equals("jshell") || n.equals("compute-sanitizer")) continue;
                    if (Files.isExecutable(f) && !Files.isDirectory(f) && !Files.exists(bin.resolve(n))) Files.createSymbolicLink(bin.resolve(n), f.toAbsolutePath());
                }
            }
        }
        Path cs = bin.resolve("compute-sanitizer");
        Files.writeString(cs, "#!/usr/bin/env bash\n# test stand-in: drops the tool options, runs the program\n"
                + "while [ \"${1:-}\" != \"${1#--}\" ]; do shift 2; done\n\"$@\"; rc=$?\necho '========= ERROR SUMMARY: 0 errors'\nexit $rc\n");
        cs.toFile().setExecutable(true);
        return bin;
    }
}
