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
 * The whole device check as the target machine with the GPU runs it, on the fake CUDA driver: {@code
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
            assertEquals(18, Repo.files(dir.resolve(t).resolve("tables"), ".txt").size(), prep.out());
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
        assertTrue(o.contains("topology h200 (from the GPU's name, 132 SMs as the topology has): 18 tables"), o);
        assertTrue(o.contains("platform: NVIDIA driver") && o.contains("CUDA 13.0") && o.contains("NVRTC 13.0"), o);
        assertTrue(o.contains("compute-sanitizer racecheck on ") && o.contains("compute-sanitizer synccheck on "), o);
        List<String> rows = o.lines().filter(l -> l.matches("^[a-z-]+(\\+nar|-ua|-nap|-steps|-full) .*")).toList();
        assertEquals(20, rows.size(), o);
        // What --prepare wrote names no folder of this machine: it runs the same elsewhere.
        assertNoAbsolutePaths(dir);
        for (String r : rows) assertTrue(r.split(" +")[1].equals("1.000"), "fidelity below 1.000: " + r);
        // The SM clock of each row, from the stand-in nvidia-smi's samples around its timed launches.
        for (String r : rows) assertTrue(r.matches(".* 1980-1980/[0-9]+$"), "no SM clock: " + r);
        assertTrue(Files.readString(out.resolve("rows/empty-steps.txt")).contains("sm-clock-mhz: min-max/samples 1980-1980/"), o);
        assertTrue(rows.get(0).startsWith("empty-steps ") && rows.get(0).contains("132 SMs, max 131/132"), rows.get(0));
        assertTrue(rows.get(1).startsWith("empty-steps-full ") && rows.get(1).contains("132 SMs"), rows.get(1));
        // The probe's fragment applies to the h200 spec as a measured memory latency.
        Path override = out.resolve("h200-measured.json");
        Topology t = TopologyResolver.resolve("h200", override);
        assertEquals(Basis.MEASURED, t.memory().latencyNs().basis());
        assertTrue(t.memory().latencyNs().value() > 0);
        assertTrue(Files.readString(out.resolve("probe.csv")).lines().count() == 1 + 132 * 64);
        // The probe's addresses span the fake device's whole memory (1 GiB), less the L2 buffer
        // (1/64) and the launch's reserve (1/256): the line says how much and what fraction.
        String span = o.lines().filter(l -> l.startsWith("device-check: probe-memory: ")).findFirst().orElse("");
        assertTrue(span.matches("device-check: probe-memory: \\d+ of 1073741824 bytes \\(9[78]\\.\\d% of the device's memory\\) in 1 block, .*"), o);
        assertTrue(Files.readString(override).contains("of the device's 1024 MiB (97.9%, 1 block)"), Files.readString(override));
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

    /**
     * An H100 PCIe (114 SMs) matches no bundled topology, and a GPU whose name matches h200 but
     * whose SM count is not the spec's 132 is refused too: exit 4, nothing run. The prebuilt
     * runtime that --prepare carries runs from the copied folder (its RUNPATH is $ORIGIN).
     */
    @Test
    void anH100PcieIsNotTakenForAnH200() throws Exception {
        Path shim = Repo.root().resolve("runtime-shim"), built = shim.resolve("target/native");
        assumeTrue(Files.isRegularFile(built.resolve("nunart-run")), "the native runtime was not built here");
        Path dir = work.resolve("pcie"), pre = dir.resolve("prebuilt");
        Files.createDirectories(dir.resolve("h200/tables"));
        Files.createDirectories(pre);
        Files.writeString(dir.resolve("manifest"), "topologies=h200\n");
        Files.writeString(dir.resolve("h200/empty-steps.txt"), "nunart-launch 1\ndevice topology=h200 cus=132 dies=1 stacks=6 mask_words=5 dispatch=any\n");
        Files.copy(shim.resolve("src/test/native/tables/custom-deps.txt"), dir.resolve("h200/tables/custom-deps-ua.txt"));
        try (Stream<Path> s = Files.list(built)) {
            for (Path f : s.filter(f -> f.getFileName().toString().matches("nunart-run|libnunart\\.so|libnunart-mock-.*\\.so")).toList()) {
                Files.copy(f, pre.resolve(f.getFileName()), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        String[][] cases = {
            {"NVIDIA H100 PCIe", "114", "no bundled topology describes 'NVIDIA H100 PCIe' (114 SMs)"},
            {"NVIDIA H100 80GB HBM3", "114", "found 'NVIDIA H100 80GB HBM3' with 114 SMs, but the h200 topology has 132"},
            {"NVIDIA H200", "140", "found 'NVIDIA H200' with 140 SMs, but the h200 topology has 132"},
        };
        for (String[] c : cases) {
            Map<String, String> env = Map.of(
                    "NUNART_CUDA_LIBRARY", pre.resolve("libnunart-mock-cuda.so").toString(),
                    "NUNART_NVRTC_LIBRARY", pre.resolve("libnunart-mock-nvrtc.so").toString(),
                    "NUNART_MOCK_UNITS", c[1], "NUNART_MOCK_CC", "9", "NUNART_MOCK_NAME", c[0]);
            Result run = bash(env, javaFreePath(), shim.resolve("device-check.sh").toString(), "--run", dir.toString(), "--build", "prebuilt", "--out",
                    work.resolve("pcie-out-" + c[1] + c[0].length()).toString());
            assertEquals(4, run.exit(), run.out());
            assertTrue(run.out().contains("using the prebuilt runtime"), run.out());
            assertTrue(run.out().contains(c[2]), run.out());
            assertTrue(!run.out().contains("latency probe") && !run.out().contains("custom-deps-ua "), "nothing runs: " + run.out());
        }
    }

    /** No file below dir holds this checkout's or this test's absolute folder. */
    private void assertNoAbsolutePaths(Path dir) throws IOException {
        byte[][] needles = {Repo.root().toString().getBytes(StandardCharsets.UTF_8), work.toString().getBytes(StandardCharsets.UTF_8)};
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                if (f.startsWith(dir.resolve("out"))) continue;
                byte[] b = Files.readAllBytes(f);
                for (byte[] n : needles) assertTrue(indexOf(b, n) < 0, f + " holds the absolute path " + new String(n, StandardCharsets.UTF_8));
            }
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
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
     * The programs the run phase calls (the script, CMake and make, the C compiler and binutils,
     * and the tools of coreutils, sed, awk and grep it uses): the PATH of the run has these and
     * no JDK. Each is a two-line script that executes the program found on this PATH, not a
     * link, so that deleting the temporary folder touches nothing outside it.
     */
    private static final List<String> RUN_PROGRAMS = List.of("bash", "sh", "env", "cat", "cp", "mv", "rm", "mkdir", "ls", "ln", "wc", "head", "tail",
            "sed", "awk", "grep", "tr", "tee", "date", "timeout", "nproc", "sort", "basename", "dirname", "sleep", "touch", "chmod", "readlink",
            "mktemp", "cut", "uname", "find", "xargs", "printf", "readelf", "cmake", "make", "gmake", "cc", "gcc", "c99", "cpp", "as", "ld",
            "ld.bfd", "ld.gold", "ar", "ranlib", "nm", "objdump", "strip");

    /**
     * A PATH of one folder with {@link #RUN_PROGRAMS}, a stand-in compute-sanitizer that runs its
     * program and reports no errors, and a stand-in nvidia-smi that answers a 1980 MHz SM clock
     * (with -lms: a sample every 100 ms, timestamped as nvidia-smi does), so that the sanitizer
     * and clock plumbing runs too.
     */
    private Path javaFreePath() throws IOException {
        Path bin = work.resolve("bin-" + System.nanoTime());
        Files.createDirectories(bin);
        for (String n : RUN_PROGRAMS) {
            Path found = null;
            for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path f = Path.of(d.isEmpty() ? "." : d).resolve(n);
                if (Files.isExecutable(f) && !Files.isDirectory(f)) { found = f.toAbsolutePath(); break; }
            }
            if (found == null) continue;
            Path w = bin.resolve(n);
            Files.writeString(w, "#!/bin/sh\nexec '" + found.toString().replace("'", "'\\''") + "' \"$@\"\n");
            w.toFile().setExecutable(true);
        }
        Path cs = bin.resolve("compute-sanitizer");
        Files.writeString(cs, "#!/usr/bin/env bash\n# test stand-in: drops the tool options, runs the program\n"
                + "while [ \"${1:-}\" != \"${1#--}\" ]; do shift 2; done\n\"$@\"; rc=$?\necho '========= ERROR SUMMARY: 0 errors'\nexit $rc\n");
        cs.toFile().setExecutable(true);
        Path smi = bin.resolve("nvidia-smi");
        Files.writeString(smi, "#!/usr/bin/env bash\n# test stand-in: the SM clock at 1980 MHz\n"
                + "case \" $* \" in *' -lms '*) while :; do echo \"$(date '+%Y/%m/%d %H:%M:%S.%3N'), 1980\"; sleep 0.1; done ;; esac\n"
                + "echo 'NVIDIA H200, 580.65, 1980 MHz, 1980 MHz, 40, 120.00 W'\n");
        smi.toFile().setExecutable(true);
        return bin;
    }
}
