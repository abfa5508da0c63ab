package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Without a GPU, device-check.sh says so and exits 3 without building anything; a run folder
 * that was never prepared is refused. The whole prepare-and-run flow on the fake CUDA driver is
 * compiler/main's DeviceCheckFlowTest (it needs nunac).
 */
class DeviceCheckScriptTest {
    @Test
    void reportsNoGpuWithItsExitCode() throws Exception {
        Path script = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/device-check.sh");
        assumeTrue(Files.isExecutable(script), "script not found: " + script);
        boolean gpu = Files.exists(Path.of("/dev/kfd")) || Files.exists(Path.of("/dev/nvidia0"));
        assumeTrue(!gpu, "a GPU device node exists: the no-GPU path is not testable here");
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(3, p.exitValue(), out);
        assertTrue(out.contains("no GPU found"), out);
    }

    @Test
    void anUnpreparedRunFolderIsRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path script = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/device-check.sh");
        assumeTrue(Files.isExecutable(script), "script not found: " + script);
        Process p = new ProcessBuilder("bash", script.toString(), "--run", dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("has no manifest: prepare it first (--prepare DIR)"), out);
    }
}
