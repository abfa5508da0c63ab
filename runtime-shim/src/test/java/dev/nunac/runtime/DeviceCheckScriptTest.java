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

    /**
     * NVRTC in the folders the wheels and toolkits put it, as a fake tree: the CUDA 13 wheel's
     * site-packages/nvidia/cu13/lib (in a virtual environment, and through python3's nvidia
     * package on PYTHONPATH), the CUDA 12 wheel's nvidia/cuda_nvrtc/lib, and a toolkit's
     * targets/ARCH/lib under CUDA_HOME and lib64 under CUDA_PATH, each with its builtins library.
     */
    @Test
    void findsNvrtcInTheCuda13WheelAndToolkitLayouts(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path script = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/device-check.sh");
        assumeTrue(Files.isExecutable(script), "script not found: " + script);
        Path venv = tmp.resolve("venv"), py = tmp.resolve("pythonpath"), cuda = tmp.resolve("cuda-13.0"), cuda12 = tmp.resolve("cuda-12.8");
        Path cu13 = venv.resolve("lib/python3.12/site-packages/nvidia/cu13/lib");
        Path cu12 = venv.resolve("lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib");
        Path onPath = py.resolve("nvidia/cu13/lib");
        Path toolkit = cuda.resolve("targets/x86_64-linux/lib"), lib64 = cuda12.resolve("lib64");
        for (Path d : new Path[] {cu13, onPath, toolkit}) fakeLibs(d, "libnvrtc.so.13", "libnvrtc-builtins.so.13.0");
        fakeLibs(cu12, "libnvrtc.so.12", "libnvrtc-builtins.so.12.8");
        fakeLibs(lib64, "libnvrtc.so.12", "libnvrtc-builtins.so.12.8");
        Files.createDirectories(tmp.resolve("home"));
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "--find-nvrtc").redirectErrorStream(true);
        pb.environment().put("VIRTUAL_ENV", venv.toString());
        pb.environment().put("PYTHONPATH", py.toString());
        pb.environment().put("CUDA_HOME", cuda.toString());
        pb.environment().put("CUDA_PATH", cuda12.toString());
        pb.environment().put("HOME", tmp.resolve("home").toString());
        pb.environment().remove("NUNART_NVRTC_LIBRARY");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("NVRTC found in " + cu13 + ": libnvrtc.so.13 builtins: libnvrtc-builtins.so.13.0"), out);
        assertTrue(out.contains("NVRTC found in " + cu12 + ": libnvrtc.so.12 builtins: libnvrtc-builtins.so.12.8"), out);
        assertTrue(out.contains("NVRTC found in " + toolkit + ": libnvrtc.so.13 builtins: libnvrtc-builtins.so.13.0"), out);
        assertTrue(out.contains("NVRTC found in " + lib64 + ": libnvrtc.so.12 builtins: libnvrtc-builtins.so.12.8"), out);
        if (new ProcessBuilder("python3", "-c", "pass").start().waitFor() == 0) {
            assertTrue(out.contains("NVRTC found in " + onPath + ": libnvrtc.so.13"), "python3 finds the nvidia package on PYTHONPATH: " + out);
        }
        // The wheels come before the toolkits on the loader's path.
        String ld = out.lines().filter(l -> l.contains("LD_LIBRARY_PATH for the runtime starts with ")).findFirst().orElse("");
        assertTrue(ld.indexOf(cu13.toString()) > 0 && ld.indexOf(cu13.toString()) < ld.indexOf(toolkit.toString())
                && ld.indexOf(toolkit.toString()) < ld.indexOf(lib64.toString()), out);
    }

    /** A wheel folder without the builtins library is named as such (NVRTC fails without it). */
    @Test
    void saysWhenTheBuiltinsLibraryIsMissing(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path script = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/device-check.sh");
        assumeTrue(Files.isExecutable(script), "script not found: " + script);
        Path cu13 = tmp.resolve("venv/lib/python3.11/site-packages/nvidia/cu13/lib");
        fakeLibs(cu13, "libnvrtc.so.13");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "--find-nvrtc").redirectErrorStream(true);
        pb.environment().put("VIRTUAL_ENV", tmp.resolve("venv").toString());
        pb.environment().put("HOME", tmp.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("NVRTC found in " + cu13 + ": libnvrtc.so.13 builtins: none beside it"), out);
    }

    private static void fakeLibs(Path dir, String... names) throws java.io.IOException {
        Files.createDirectories(dir);
        for (String n : names) Files.writeString(dir.resolve(n), "not a library\n");
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
