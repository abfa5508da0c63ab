package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Repo;
import org.junit.jupiter.api.Test;

/** {@code nunac run}: the acceptance command and its failure modes. */
class RunCommandTest {
    private static String example() {
        return Repo.root().resolve("examples/allreduce-allpairs.msccl").toString();
    }

    @Test
    void hostRunVerifiesAndReportsEmulatedAffinityAndAdvisoryPages() {
        assumeTrue(NunaRuntime.isAvailable(), "native runtime unavailable");
        CliRun r = CliRun.of("run", example(), "--topo", "mi300x", "-D", "ranks=8", "--backend", "host");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("backend: host"), r.out());
        assertTrue(r.out().contains("cu-affinity: emulated"), r.out());
        assertTrue(r.out().contains("page-placement: advisory"), r.out());
        assertTrue(r.out().contains("data-check: passed"), r.out());
    }

    @Test
    void timedLaunchesOfAnInPlacePlanStillVerify() {
        assumeTrue(NunaRuntime.isAvailable(), "native runtime unavailable");
        CliRun r = CliRun.of("run", example(), "--topo", "mi300x", "-D", "ranks=4", "--backend", "host", "--size", "64KiB",
                "--repeat", "3");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("median-launch-us: pinned "), r.out());
    }

    @Test
    void deviceThatDoesNotFitIsExitFour() {
        assumeTrue(NunaRuntime.isAvailable(), "native runtime unavailable");
        CliRun r = CliRun.of("run", example(), "--topo", "mi300x", "-D", "ranks=4", "--backend", "host",
                "--runtime-options", "cus=132 dies=1");
        assertEquals(4, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("mismatch: the placement is for mi300x with 304 CUs, the device"), r.err());
        assertTrue(r.out().contains("state: failed"), r.out());
    }

    @Test
    void unknownBackendIsAUsageError() {
        CliRun r = CliRun.of("run", example(), "--topo", "mi300x", "--backend", "tpu");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown backend 'tpu'"), r.err());
    }

    @Test
    void unavailableGpuBackendIsExitFourWithTheCause() {
        assumeTrue(NunaRuntime.isAvailable(), "native runtime unavailable");
        CliRun r = CliRun.of("run", example(), "--topo", "mi300x", "-D", "ranks=2", "--backend", "hip");
        if (r.exit() == 0) return; // a HIP machine: nothing to check here
        assertEquals(4, r.exit());
        assertTrue(r.err().contains("hip backend unavailable: "), r.err());
    }
}
