package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded CUDA executor compiles with nvcc where the toolkit is installed. */
class KernelSourceTest {
    @Test
    void cudaExecutorCompiles(@TempDir Path tmp) throws Exception {
        Path src = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/src/kernels/executor.cu");
        assumeTrue(Files.exists(src), "kernel source not found from " + src);
        Path nvcc = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nvcc"))) { nvcc = Path.of(dir, "nvcc"); break; }
        }
        assumeTrue(nvcc != null, "nvcc not on PATH: CUDA executor compile check skipped");
        Process p = new ProcessBuilder(nvcc.toString(), "--ptx", "-arch=compute_80", "-o", tmp.resolve("x.ptx").toString(), src.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 120 s");
        assertEquals(0, p.exitValue(), out);
    }
}
