package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs launch tables through {@code nunart-run} with the CUDA or HIP backend pointed at the fake
 * driver libraries (src/test/native, built into target/native by build-native.sh). The loader
 * overrides are environment variables, so each run is a child process.
 */
public final class MockDrivers {
    /** One run: exit code, the report, the "nunart-run: STATUS: message" line, the driver trace. */
    public record Run(int exit, LaunchReport report, String stderr, List<String> trace) {
        public String state() {
            return report.get("state");
        }
    }

    private final Path dir;

    private MockDrivers(Path dir) {
        this.dir = dir;
    }

    /** The native build folder of runtime-shim; the calling test is skipped when it lacks the mocks. */
    public static MockDrivers find() {
        Path target = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/target").toAbsolutePath().normalize();
        Path dir = target.resolve("native");
        for (String f : new String[] {"nunart-run", "libnunart-mock-hip.so", "libnunart-mock-hiprtc.so", "libnunart-mock-hip-with-rtc.so",
                "libnunart-mock-cuda.so", "libnunart-mock-nvrtc.so"}) {
            assumeTrue(Files.exists(dir.resolve(f)), () -> f + " not built in " + dir + ": " + whyNotBuilt(target));
        }
        return new MockDrivers(dir);
    }

    /** The reason build-native.sh recorded, or what it needs. */
    private static String whyNotBuilt(Path target) {
        try {
            return Files.readString(target.resolve("classes/META-INF/native/unavailable.txt"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "the native build needs cmake and a C compiler (see runtime-shim/target/native-build.log)";
        }
    }

    public Path lib(String name) {
        return dir.resolve("libnunart-mock-" + name + ".so");
    }

    /** Environment that points the backend at the mocks, spreading blocks over `units` SMs or XCDs. */
    public Map<String, String> env(String backend, int units) {
        Map<String, String> env = new HashMap<>();
        if (backend.equals("hip")) {
            env.put("NUNART_HIP_LIBRARY", lib("hip").toString());
            // No KFD topology: the shape comes from the options, whatever GPU this machine has.
            env.put("NUNART_KFD_TOPOLOGY", dir.resolve("no-kfd-topology").toString());
            env.put("NUNART_HIPRTC_LIBRARY", lib("hiprtc").toString());
        } else {
            env.put("NUNART_CUDA_LIBRARY", lib("cuda").toString());
            env.put("NUNART_NVRTC_LIBRARY", lib("nvrtc").toString());
        }
        env.put("NUNART_MOCK_UNITS", String.valueOf(units));
        return env;
    }

    /** Runs `table` once (plus --time n when n > 0); `env` replaces every NUNART_ variable. */
    public Run run(Path work, String table, String backend, String options, Map<String, String> env, int time) throws IOException, InterruptedException {
        Files.createDirectories(work);
        Path file = Files.createTempFile(work, "launch", ".txt");
        Files.writeString(file, table, StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of(dir.resolve("nunart-run").toString(), file.toString(), "--backend", backend));
        if (options != null) cmd.addAll(List.of("--options", options));
        if (time > 0) cmd.addAll(List.of("--time", String.valueOf(time)));
        return exec(work, file.getFileName().toString(), cmd, env);
    }

    /** Runs the latency probe ({@code nunart-run --probe work/probe}) with `extra` arguments; its
     * summary lines ("probe-memory: ...") parse as the report. */
    public Run probe(Path work, String backend, String options, Map<String, String> env, String... extra) throws IOException, InterruptedException {
        Files.createDirectories(work);
        List<String> cmd = new ArrayList<>(List.of(dir.resolve("nunart-run").toString(), "--probe", work.resolve("probe").toString(), "--backend", backend));
        if (options != null) cmd.addAll(List.of("--options", options));
        cmd.addAll(List.of(extra));
        return exec(work, "probe", cmd, env);
    }

    private Run exec(Path work, String name, List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        Path trace = work.resolve(name + ".trace");
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("NUNART_"));
        pb.environment().putAll(env);
        pb.environment().put("NUNART_MOCK_TRACE", trace.toString());
        pb.redirectError(work.resolve(name + ".err").toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = p.waitFor(120, TimeUnit.SECONDS);
        if (!finished) p.destroyForcibly();
        assertTrue(finished, "nunart-run did not finish in 120 s: " + out);
        String err = Files.readString(work.resolve(name + ".err"), StandardCharsets.UTF_8);
        List<String> lines = Files.exists(trace) ? Files.readAllLines(trace, StandardCharsets.UTF_8) : List.of();
        return new Run(p.exitValue(), LaunchReport.parse(out), err.trim(), lines);
    }
}
