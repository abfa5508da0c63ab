package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The embedded CUDA executor compiles with nvcc where the toolkit is installed. Without a HIP
 * compiler, the AMD branch is only preprocessed: each target reads the registers it has.
 */
class KernelSourceTest {
    private static Path onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return Path.of(dir, tool);
        }
        return null;
    }

    /** What each register or clock looks like in the preprocessed source. */
    private static final Map<String, String> READS = Map.of(
            "XCC_ID", "hwreg(HW_REG_XCC_ID)", "HW_ID", "hwreg(HW_REG_HW_ID)", "wall_clock64", "return wall_clock64()",
            "smid", "%%smid", "nsmid", "%%nsmid", "globaltimer", "%%globaltimer");

    /** Budgets in %globaltimer on NVIDIA (not clock64, whose rate follows the SM clock), wall_clock64 on AMD. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "__gfx942__, XCC_ID HW_ID wall_clock64",
        "__gfx950__, XCC_ID HW_ID wall_clock64",
        "__gfx90a__, HW_ID wall_clock64",
        "__gfx1100__, wall_clock64",
        "NVIDIA, smid nsmid globaltimer"})
    void eachTargetReadsTheRegistersItHas(String target, String expected) throws Exception {
        String out = preprocessed(target, "");
        List<String> want = List.of(expected.split(" "));
        READS.forEach((name, text) -> assertEquals(want.contains(name), out.contains(text), target + " reads " + name + "?\n" + out));
    }

    /**
     * The single-device executor keeps device-scope atomics; -DNR_MULTI=1 (several devices) uses
     * system scope. Polls are acquire loads of the same scope, never an atomic add of 0.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"NVIDIA, ''", "NVIDIA, -DNR_MULTI=1", "__gfx942__, ''", "__gfx942__, -DNR_MULTI=1"})
    void severalDevicesUseSystemScopeAtomicsAndFences(String target, String define) throws Exception {
        String out = preprocessed(target, define);
        boolean multi = !define.isEmpty();
        for (String call : new String[] {"atomicExch_system(", "atomicCAS_system(", "__threadfence_system()", "nr_at("}) {
            assertEquals(multi, out.contains(call), target + " " + define + " uses " + call + "?");
        }
        assertEquals(!multi, out.contains("atomicCAS((&claim"), target + " " + define + ": device-scope claims?");
        boolean nvidia = target.equals("NVIDIA");
        String acquire = nvidia ? (multi ? "ld.acquire.sys.b32" : "ld.acquire.gpu.b32")
                : "__hip_atomic_load(p, 2, __HIP_MEMORY_SCOPE_" + (multi ? "SYSTEM)" : "AGENT)"); // __ATOMIC_ACQUIRE is 2
        assertTrue(out.contains(acquire), target + " " + define + " polls with " + acquire + "?");
        assertTrue(!out.contains("atomicAdd((p), 0)") && !out.contains("atomicAdd_system((p), 0)"), "a poll by atomic add of 0 is left");
    }

    /** The executor source as the runtime compiler sees it for a target (gcc's preprocessor stands in). */
    static String preprocessed(String target, String define) throws Exception {
        Path src = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/src/kernels/executor.cu");
        Path gcc = onPath("gcc");
        assumeTrue(Files.exists(src) && gcc != null, "gcc or the kernel source not found: preprocessor check skipped");
        List<String> cmd = new ArrayList<>(List.of(gcc.toString(), "-x", "c++", "-E", "-P"));
        if (!target.equals("NVIDIA")) cmd.addAll(List.of("-D__HIPCC_RTC__", "-D" + target));
        if (!define.isEmpty()) cmd.add(define);
        cmd.add(src.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @ParameterizedTest(name = "nvcc {0}")
    @ValueSource(strings = {"single device", "-DNR_MULTI=1"})
    void cudaExecutorCompiles(String variant, @TempDir Path tmp) throws Exception {
        Path src = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/src/kernels/executor.cu");
        assumeTrue(Files.exists(src), "kernel source not found from " + src);
        Path nvcc = onPath("nvcc");
        assumeTrue(nvcc != null, "nvcc not on PATH: CUDA executor compile check skipped");
        List<String> cmd = new ArrayList<>(List.of(nvcc.toString(), "--ptx", "-arch=compute_80", "-o", tmp.resolve("x.ptx").toString()));
        if (variant.startsWith("-D")) cmd.add(variant);
        cmd.add(src.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 120 s");
        assertEquals(0, p.exitValue(), out);
        String ptx = Files.readString(tmp.resolve("x.ptx"));
        // System-scope atomics appear as .sys in PTX only in the several-device variant.
        assertEquals(variant.startsWith("-D"), ptx.contains(".sys"), "system scope in the PTX of the " + variant + " variant");
    }

    /**
     * A cubin for sm_90 (H100/H200) and sm_100 (B200), as the runtime asks NVRTC for, keeps the
     * executor at 32 registers or fewer: 8 blocks of 256 threads then fit on an SM (65,536
     * registers), the threadblocks per SM the shipped specs plan for. More would lower the
     * occupancy and make the runtime refuse plans with 8 threadblocks on an SM.
     */
    @ParameterizedTest(name = "nvcc -cubin {0}")
    @ValueSource(strings = {"sm_90", "sm_100"})
    void cubinFitsEightBlocksPerSm(String arch, @TempDir Path tmp) throws Exception {
        Path src = Path.of(System.getProperty("nunac.repo", ".."), "runtime-shim/src/kernels/executor.cu");
        Path nvcc = onPath("nvcc");
        assumeTrue(Files.exists(src) && nvcc != null, "nvcc not on PATH: cubin register check skipped");
        for (String variant : new String[] {"", "-DNR_MULTI=1"}) {
            List<String> cmd = new ArrayList<>(List.of(nvcc.toString(), "-cubin", "-arch=" + arch, "--resource-usage", "-o", tmp.resolve("x.cubin").toString()));
            if (!variant.isEmpty()) cmd.add(variant);
            cmd.add(src.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assumeTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 120 s");
            assertEquals(0, p.exitValue(), out);
            // ptxas prints the properties of each kernel, then "Used N registers".
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Function properties for (\\w+)[\\s\\S]*?Used (\\d+) registers").matcher(out);
            int kernels = 0;
            while (m.find()) {
                kernels++;
                assertTrue(Integer.parseInt(m.group(2)) <= 32, m.group(1) + " " + variant + " uses " + m.group(2) + " registers:\n" + out);
            }
            assertEquals(2, kernels, out);
            assertTrue(!java.util.regex.Pattern.compile("[1-9]\\d* bytes spill").matcher(out).find(), "spills:\n" + out);
        }
    }
}
