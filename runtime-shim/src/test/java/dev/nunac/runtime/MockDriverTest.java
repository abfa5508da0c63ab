package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CUDA and HIP orchestration without a GPU: the backends load the fake drivers
 * (src/test/native), compile through the fake NVRTC/hipRTC, pack and upload the plan, launch,
 * read back, and the fake launch executes the step records as the kernel would. What is
 * checked is everything on the host side of the driver calls; the kernel itself is not.
 */
class MockDriverTest {
    /** The tiny table: 8 CUs on 2 dies, threadblock 0 on CU 0 (die 0), threadblock 1 on CU 1 (die 1).
     * HIP takes the device shape from the options; CUDA reads it from the (fake) driver. */
    private static final String OPTIONS = "cus=8 dies=2";
    private MockDrivers mocks;

    @TempDir
    Path work;

    /** Per test, so that each one is reported skipped, with the reason, without the native build. */
    @BeforeEach
    void mocks() {
        mocks = MockDrivers.find();
    }

    /** Blocks land round-robin on the table's 2 dies (HIP) or 8 SMs (CUDA). */
    private static int units(String backend) {
        return backend.equals("hip") ? 2 : 8;
    }

    private MockDrivers.Run run(String backend, Map<String, String> extra, String options, int time) throws Exception {
        Map<String, String> env = mocks.env(backend, units(backend));
        env.putAll(extra);
        return mocks.run(work, Tables.allgather2(), backend, options, env, time);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void runsTheTableWithPlacementAppliedAndReadBack(String backend) throws Exception {
        MockDrivers.Run r = run(backend, Map.of(), OPTIONS, 3);
        LaunchReport rep = r.report();
        assertEquals(0, r.exit(), r.stderr() + "\n" + rep.text());
        assertEquals(backend, rep.get("backend"));
        assertEquals("verified", r.state());
        assertTrue(rep.get("data-check").startsWith("passed (allgather postcondition, 16 floats on 2 ranks)"), rep.text());
        assertTrue(rep.get("cu-affinity").startsWith("applied"), rep.text());
        String unit = backend.equals("hip") ? "die" : "CU";
        assertTrue(rep.get("placement-fidelity").startsWith("1.000 (2/2 threadblocks ran on their planned " + unit + ", device readback)"), rep.text());
        assertTrue(rep.text().contains("median-launch-us: pinned"), "timed launches leave the buffers verifiable: " + rep.text());
        // 20 warm-up and 3 timed launches, plain and pinned, then the verified one; all on the default stream.
        String launch = backend.equals("hip") ? "hipModuleLaunchKernel" : "cuLaunchKernel";
        assertEquals(47, r.trace().stream().filter(l -> l.startsWith(launch) && l.endsWith("stream=default")).count(), String.join("\n", r.trace()));
    }

    @Test
    void hipPinnedGridIsDiesTimesBlocksPerDieAndReportsWhatItApplied() throws Exception {
        MockDrivers.Run r = run("hip", Map.of(), OPTIONS + " arch=gfx942", 0);
        LaunchReport rep = r.report();
        assertEquals(0, r.exit(), r.stderr());
        // One threadblock per die at most, plus a spare: 2 dies x 2 blocks.
        assertTrue(r.trace().contains("hipModuleLaunchKernel grid=4x1x1 block=256x1x1 shared=0 stream=default"), String.join("\n", r.trace()));
        assertTrue(rep.get("cu-affinity").startsWith("applied at XCD level (XCC_ID dispatcher over 4 blocks = 2 XCDs x 2"), rep.text());
        assertTrue(rep.get("cu-affinity").contains("the CU within the XCD: advisory"), rep.text());
        assertTrue(r.trace().contains("HIPRTCCompileProgram --offload-arch=gfx942"), String.join("\n", r.trace()));
        assertTrue(rep.get("executor").contains("with --offload-arch=gfx942 (option arch; agrees with the device's gcnArchName gfx942:sramecc+:xnack-"), rep.text());
        assertTrue(rep.get("stream-masks").startsWith("applied (2 streams created with their domain's CU mask"), rep.text());
        assertTrue(rep.get("stream-masks").contains("the executor runs on the default stream"), rep.text());
        assertTrue(rep.get("cu-readback").startsWith("HW_ID of 2/2 threadblocks: 2 distinct CUs as (XCD, SE, SH, CU_ID)"), rep.text());
    }

    @Test
    void withoutArchTheDevicesGcnArchNameIsTheTargetAndTheReportSaysSo() throws Exception {
        MockDrivers.Run r = run("hip", Map.of(), OPTIONS, 0);
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.trace().contains("HIPRTCCompileProgram --offload-arch=gfx942"), String.join("\n", r.trace()));
        assertTrue(r.report().get("executor").contains("with --offload-arch=gfx942 (the device's gcnArchName gfx942:sramecc+:xnack-, "
                + "hipGetDevicePropertiesR0600)"), r.report().text());
    }

    @Test
    void withoutArchOrGcnArchNameNothingIsCompiled() throws Exception {
        MockDrivers.Run r = run("hip", Map.of("NUNART_MOCK_GCN_ARCH", ""), OPTIONS, 0);
        assertEquals(1, r.exit(), r.stderr());
        assertTrue(r.stderr().contains("unavailable: HIP device 0's ISA is unknown"), r.stderr());
        assertTrue(r.trace().stream().noneMatch(l -> l.startsWith("HIPRTCCompileProgram")), String.join("\n", r.trace()));
    }

    /** By default the probe's addresses span the fake's whole 64 MiB; --mib bounds them; a bad or
     * too large size is one message. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void theLatencyProbeSpansTheWholeDeviceMemoryUnlessMibBoundsIt(String backend) throws Exception {
        Map<String, String> env = mocks.env(backend, units(backend));
        env.put("NUNART_MOCK_MEM_MB", "64");
        MockDrivers.Run whole = mocks.probe(work, backend, OPTIONS + " mem_limit_mb=16", env);
        assertEquals(0, whole.exit(), whole.stderr());
        assertTrue(whole.report().get("probe-memory").matches("\\d+ of 67108864 bytes \\(9[6-9]\\.\\d% of the device's memory\\) in 1 block, .*"),
                whole.report().text());
        assertTrue(whole.report().get("probe").contains(" addresses over 62 MiB of the device's 64 MiB (9"), whole.report().text());
        assertTrue(Files.readString(work.resolve("probe.json")).contains("spread evenly over 62 MiB of the device's 64 MiB (9"));
        MockDrivers.Run eight = mocks.probe(work, backend, OPTIONS, env, "--mib", "8");
        assertEquals(0, eight.exit(), eight.stderr());
        assertTrue(eight.report().get("probe-memory").startsWith("8388608 of 67108864 bytes (12.5% of the device's memory) in 1 block,"), eight.report().text());
        MockDrivers.Run big = mocks.probe(work, backend, OPTIONS, env, "--mib", "100");
        assertEquals(1, big.exit(), big.stderr());
        assertTrue(big.stderr().startsWith("nunart-run: memory: latency probe over 100 MiB: device 0 has 64.0 MiB free of 64.0 MiB"), big.stderr());
        for (String bad : new String[] {"abc", "0", "-3", "8x"}) {
            MockDrivers.Run r = mocks.probe(work, backend, OPTIONS, env, "--mib", bad);
            assertEquals(2, r.exit(), r.stderr());
            assertEquals("nunart-run: --mib " + bad + ": not a size in MiB (1 to 1048576)", r.stderr());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void misplacedBlocksLowerTheFidelityButNotTheData(String backend) throws Exception {
        // Every block lands on unit 0: threadblock 1, planned on unit 1, is taken by a stealing block.
        MockDrivers.Run r = run(backend, Map.of("NUNART_MOCK_LOCATION", "0"), OPTIONS, 0);
        LaunchReport rep = r.report();
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(rep.get("placement-fidelity").startsWith("0.500 (1/2 threadblocks ran on their planned"), rep.text());
        assertTrue(rep.get("data-check").startsWith("passed"), rep.text());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void compileFailureCarriesTheCompilerLog(String backend) throws Exception {
        MockDrivers.Run r = run(backend, Map.of("NUNART_MOCK_COMPILE_ERROR", "use of undeclared identifier 'nr_clock'"), OPTIONS, 0);
        String rtc = backend.equals("hip") ? "hipRTC" : "NVRTC";
        assertEquals(1, r.exit());
        assertTrue(r.stderr().startsWith("nunart-run: device: " + rtc + " could not compile the executor"), r.stderr());
        assertTrue(r.stderr().contains("executor.cu:1:1: error: use of undeclared identifier 'nr_clock'"), r.stderr());
        assertEquals("failed", r.state(), "alloc compiles: a failure there is terminal");
        assertTrue(r.report().get("error").contains("use of undeclared identifier"), r.report().text());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void aCompilerLibraryWithoutItsSymbolsIsUnavailable(String backend) throws Exception {
        // The driver library stands in for the compiler: it loads but lacks every compiler symbol,
        // the version query (asked first, before anything is compiled) included.
        String rtcVar = backend.equals("hip") ? "NUNART_HIPRTC_LIBRARY" : "NUNART_NVRTC_LIBRARY";
        String first = backend.equals("hip") ? "hiprtcVersion" : "nvrtcVersion";
        MockDrivers.Run r = run(backend, Map.of(rtcVar, mocks.lib(backend).toString()), OPTIONS, 0);
        assertEquals(1, r.exit());
        assertTrue(r.stderr().startsWith("nunart-run: unavailable: " + mocks.lib(backend) + " lacks a working " + first), r.stderr());
        assertEquals("failed", r.state());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void aDriverLibraryWithoutItsSymbolsIsUnavailableAtOpen(String backend) throws Exception {
        String var = backend.equals("hip") ? "NUNART_HIP_LIBRARY" : "NUNART_CUDA_LIBRARY";
        String rtc = backend.equals("hip") ? "hiprtc" : "nvrtc";
        String first = backend.equals("hip") ? "hipInit" : "cuInit";
        MockDrivers.Run r = run(backend, Map.of(var, mocks.lib(rtc).toString()), OPTIONS, 0);
        assertEquals(1, r.exit());
        assertEquals("nunart-run: unavailable: " + backend + " backend unavailable: " + mocks.lib(rtc) + " lacks " + first, r.stderr());
        assertEquals("failed", r.state());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void anOverrideThatDoesNotLoadNeverFallsBack(String backend) throws Exception {
        String var = backend.equals("hip") ? "NUNART_HIP_LIBRARY" : "NUNART_CUDA_LIBRARY";
        MockDrivers.Run r = run(backend, Map.of(var, work.resolve("missing.so").toString()), OPTIONS, 0);
        assertEquals(1, r.exit());
        assertTrue(r.stderr().startsWith("nunart-run: unavailable: " + backend + " backend unavailable: "), r.stderr());
        assertTrue(r.stderr().contains(var + "=" + work.resolve("missing.so") + " does not load"), r.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void noDeviceIsUnavailable(String backend) throws Exception {
        MockDrivers.Run r = run(backend, Map.of("NUNART_MOCK_DEVICES", "0"), OPTIONS, 0);
        assertEquals(1, r.exit());
        assertTrue(r.stderr().matches("nunart-run: unavailable: " + backend + " backend unavailable: no (HIP|CUDA) device found"), r.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void aWaitNeverSatisfiedIsATimeoutNotAHang(String backend) throws Exception {
        MockDrivers.Run r = run(backend, Map.of("NUNART_MOCK_HANG", "1"), OPTIONS + " timeout_ms=500", 0);
        assertEquals(1, r.exit());
        assertTrue(r.stderr().startsWith("nunart-run: timeout: the executor gave up after"), r.stderr());
        assertEquals("failed", r.state());
    }

    @Test
    void hipRtcInsideTheHipRuntimeIsUsedWhenNoLibhiprtcLoads() throws Exception {
        // Only meaningful where no real hipRTC would be found first.
        assumeFalse(Files.exists(Path.of("/opt/rocm")), "a ROCm installation is present: its libhiprtc would be loaded first");
        Map<String, String> env = mocks.env("hip", units("hip"));
        env.remove("NUNART_HIPRTC_LIBRARY");
        env.put("NUNART_HIP_LIBRARY", mocks.lib("hip-with-rtc").toString());
        MockDrivers.Run r = mocks.run(work, Tables.allgather2(), "hip", OPTIONS, env, 0);
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.report().get("executor").startsWith("compiled by hipRTC 6.2 (" + mocks.lib("hip-with-rtc") + ", which carries it)"), r.report().text());
        // Without it, the message names every place looked at.
        env.put("NUNART_HIP_LIBRARY", mocks.lib("hip").toString());
        MockDrivers.Run none = mocks.run(work, Tables.allgather2(), "hip", OPTIONS, env, 0);
        assertTrue(none.stderr().startsWith("nunart-run: unavailable: hipRTC not found (none of libhiprtc.so, libhiprtc.so.6, libhiprtc.so.7 loads"), none.stderr());
        assertTrue(none.stderr().endsWith("nor in " + mocks.lib("hip") + "): the executor cannot be compiled at run time"), none.stderr());
    }

    @Test
    void hipNeedsTheDeviceShapeAndABadArchIsAnArgumentError() throws Exception {
        MockDrivers.Run noShape = run("hip", Map.of(), "", 0);
        assertTrue(noShape.stderr().contains("its CU and XCD counts must be given (options cus=N dies=N)"), noShape.stderr());
        MockDrivers.Run badArch = run("hip", Map.of(), OPTIONS + " arch=gfx942;x", 0);
        assertTrue(badArch.stderr().startsWith("nunart-run: argument: option arch: not a target name"), badArch.stderr());
        assertEquals("failed", badArch.state());
    }

    // ---- ranks on separate devices ----

    private MockDrivers.Run onDevices(String backend, int visible, Map<String, String> extra, String options) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("NUNART_MOCK_DEVICES", String.valueOf(visible)));
        env.putAll(extra);
        return run(backend, env, OPTIONS + (options.isEmpty() ? "" : " " + options), 0);
    }

    /** A run on {@code visible} devices without further fakes, which must succeed. */
    private MockDrivers.Run passedOnDevices(String backend, int visible, String options) throws Exception {
        MockDrivers.Run r = onDevices(backend, visible, Map.of(), options);
        assertEquals(0, r.exit(), r.stderr() + "\n" + r.report().text());
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void byDefaultEachRankRunsOnItsOwnVisibleDevice(String backend) throws Exception {
        MockDrivers.Run r = passedOnDevices(backend, 2, "");
        LaunchReport rep = r.report();
        assertEquals("verified", r.state());
        assertTrue(rep.get("devices").startsWith("2 (devices 0-1, ranks in contiguous blocks: 0 on device 0, 1 on device 1;"), rep.text());
        assertTrue(rep.get("device").startsWith("device 0: Mock "), rep.text());
        assertTrue(rep.get("device").contains("; device 1: Mock "), rep.text());
        String unit = backend.equals("hip") ? "die" : "CU";
        assertTrue(rep.get("placement-fidelity").startsWith("1.000 (2/2 threadblocks ran on their planned " + unit), rep.text());
        // Peer access both ways, the system-scope executor, a kernel per device, one joint run.
        String peer = backend.equals("hip") ? "hipDeviceEnablePeerAccess" : "cuCtxEnablePeerAccess";
        assertTrue(r.trace().contains(peer + " device=0 peer=1") && r.trace().contains(peer + " device=1 peer=0"), String.join("\n", r.trace()));
        assertTrue(r.trace().stream().anyMatch(l -> l.contains("CompileProgram") && l.endsWith("-DNR_MULTI=1")), String.join("\n", r.trace()));
        String launch = backend.equals("hip") ? "hipModuleLaunchKernel" : "cuLaunchKernel";
        assertEquals(2, r.trace().stream().filter(l -> l.startsWith(launch)).count(), String.join("\n", r.trace()));
        assertTrue(r.trace().contains("joint run of 2 launches on 2 devices"), String.join("\n", r.trace()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void devicesOneIsLoopbackEvenWhenSeveralAreVisible(String backend) throws Exception {
        MockDrivers.Run r = passedOnDevices(backend, 4, "devices=1");
        LaunchReport rep = r.report();
        assertTrue(rep.get("devices").startsWith("1 (loopback: all 2 ranks on device 0, one arena"), rep.text());
        assertTrue(rep.get("device").endsWith(", loopback ranks"), rep.text());
        assertTrue(r.trace().stream().noneMatch(l -> l.contains("NR_MULTI") || l.contains("PeerAccess") || l.startsWith("joint run")),
                String.join("\n", r.trace()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void refusedPeerAccessIsUnavailableAndSuggestsLoopback(String backend) throws Exception {
        MockDrivers.Run r = onDevices(backend, 2, Map.of("NUNART_MOCK_NO_PEER", "1"), "");
        String call = backend.equals("hip") ? "hipDeviceCanAccessPeer" : "cuDeviceCanAccessPeer";
        assertEquals(1, r.exit());
        assertEquals("nunart-run: unavailable: device 0 cannot access device 1's memory (" + call + " says no peer access): ranks on "
                + "separate devices need it between every pair; option devices=1 runs every rank on device 0 (loopback)", r.stderr());
        assertEquals("failed", r.state());
        // The same machine in loopback runs.
        assertEquals(0, onDevices(backend, 2, Map.of("NUNART_MOCK_NO_PEER", "1"), "devices=1").exit());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void moreDevicesThanVisibleOrThanRanksIsAnError(String backend) throws Exception {
        MockDrivers.Run notVisible = onDevices(backend, 2, Map.of(), "devices=3");
        assertEquals("nunart-run: unavailable: option devices=3: only 2 devices visible to the " + backend + " backend from device 0 on",
                notVisible.stderr());
        MockDrivers.Run tooMany = onDevices(backend, 4, Map.of(), "devices=3");
        assertEquals("nunart-run: mismatch: option devices=3: the plan has only 2 ranks, and every device runs at least one", tooMany.stderr());
        MockDrivers.Run fromOrdinal = onDevices(backend, 2, Map.of(), "device=1 devices=2");
        assertEquals("nunart-run: unavailable: option devices=2: only 1 device visible to the " + backend + " backend from device 1 on",
                fromOrdinal.stderr());
        MockDrivers.Run zero = onDevices(backend, 2, Map.of(), "devices=0");
        assertTrue(zero.stderr().startsWith("nunart-run: argument: option devices: not an integer in [1, 16]"), zero.stderr());
        // By default no more devices than ranks: 2 ranks on 4 visible devices use 2.
        MockDrivers.Run dflt = onDevices(backend, 4, Map.of(), "");
        assertEquals(0, dflt.exit(), dflt.stderr());
        assertTrue(dflt.report().get("devices").startsWith("2 (devices 0-1,"), dflt.report().text());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void severalDevicesTimeAndRelaunchAndTimeOut(String backend) throws Exception {
        MockDrivers.Run timed = run(backend, Map.of("NUNART_MOCK_DEVICES", "2"), OPTIONS, 2);
        assertEquals(0, timed.exit(), timed.stderr());
        assertTrue(timed.report().text().contains("median-launch-us: pinned"), timed.report().text());
        assertEquals("verified", timed.state());
        MockDrivers.Run hang = run(backend, Map.of("NUNART_MOCK_DEVICES", "2", "NUNART_MOCK_HANG", "1"), OPTIONS + " timeout_ms=500", 0);
        assertEquals(1, hang.exit());
        assertTrue(hang.stderr().startsWith("nunart-run: timeout: the executor gave up after"), hang.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hip", "cuda"})
    void stepsReallyReachAcrossDevices(String backend) throws Exception {
        // Peer access that is reported enabled but grants nothing: the fake launch catches the
        // first step that reads or writes the other device's memory.
        MockDrivers.Run r = onDevices(backend, 2, Map.of("NUNART_MOCK_PEER_IGNORED", "1"), "");
        assertEquals(1, r.exit());
        String sync = backend.equals("hip") ? "hipDeviceSynchronize" : "cuCtxSynchronize";
        assertTrue(r.stderr().startsWith("nunart-run: device: " + sync + " after the launch (device 0): step "), r.stderr());
        assertTrue(r.stderr().matches(".*on device [01]: .* is device [01]'s memory, without peer access"), r.stderr());
    }

    @Test
    void aDeviceThatDoesNotFitIsNamed() throws Exception {
        MockDrivers.Run r = onDevices("cuda", 2, Map.of("NUNART_MOCK_LAST_UNITS", "4"), "");
        assertEquals(1, r.exit());
        assertTrue(r.stderr().startsWith("nunart-run: mismatch: the placement is for tiny with 8 CUs, device 1 (Mock CUDA device 1 (cc 10.0, 4 SMs"),
                r.stderr());
        assertTrue(r.stderr().endsWith(") has 4"), r.stderr());
        // In loopback only device 0 is used, and it fits.
        assertEquals(0, onDevices("cuda", 2, Map.of("NUNART_MOCK_LAST_UNITS", "4"), "devices=1").exit());
    }
}
