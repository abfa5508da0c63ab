package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The host backend on a hand-written table, the state machine, and the backends' availability. */
class SessionTest {
    @Test
    void nativeRuntimeIsBuiltAndLoads() {
        // On machines with cmake and gcc (this project's CI) the library must be there.
        assertTrue(NunaRuntime.isAvailable(), () -> "unavailable: " + NunaRuntime.unavailabilityCause());
    }

    @Test
    void hostRunsAndVerifiesTheTinyAllGather() {
        try (Session s = NunaRuntime.open("host", null)) {
            s.load(Tables.allgather2()).allocate().launch().verify();
            assertEquals("verified", s.state());
            for (int r = 0; r < 2; r++) {
                assertArrayEquals(Reference.output("allgather", 2, 1, 0, r, 2, 4), s.output(r));
            }
            LaunchReport rep = s.parsedReport();
            assertEquals("host", rep.get("backend"));
            assertTrue(rep.get("cu-affinity").startsWith("emulated"), rep.text());
            assertTrue(rep.get("page-placement").startsWith("advisory"), rep.text());
            assertTrue(rep.get("data-check").startsWith("passed"), rep.text());
            assertArrayEquals(new int[] {0}, s.gridOrder(1));
            assertTrue(s.timeLaunches(3, true) > 0);
        }
    }

    @Test
    void timingLeavesBuffersReadyForAVerifiedLaunch() {
        try (Session s = NunaRuntime.open("host", null)) {
            s.load(Tables.allgather2()).allocate();
            s.timeLaunches(5, false);
            s.timeLaunches(5, true);
            s.launch().verify();
        }
    }

    @Test
    void callsOutOfOrderAreRefusedAndFailureIsTerminal() {
        try (Session s = NunaRuntime.open("host", null)) {
            RuntimeFailure e = assertThrows(RuntimeFailure.class, s::launch);
            assertEquals(RuntimeFailure.Status.STATE, e.status());
            assertTrue(e.getMessage().contains("launch needs state buffers-ready"), e.getMessage());
            assertEquals("failed", s.state());
            RuntimeFailure again = assertThrows(RuntimeFailure.class, () -> s.load(Tables.allgather2()));
            assertTrue(again.getMessage().contains("failed earlier"), again.getMessage());
        }
    }

    @Test
    void closedSessionThrowsInsteadOfCrashing() {
        Session s = NunaRuntime.open("host", null);
        s.close();
        s.close();
        assertThrows(RuntimeFailure.class, s::report);
    }

    @Test
    void unknownBackendAndOptionAreArgumentErrors() {
        RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> NunaRuntime.open("opencl", null));
        assertEquals(RuntimeFailure.Status.ARGUMENT, e.status());
        assertTrue(e.getMessage().contains("unknown backend 'opencl'"), e.getMessage());
        RuntimeFailure o = assertThrows(RuntimeFailure.class, () -> NunaRuntime.open("host", "speed=fast"));
        assertTrue(o.getMessage().contains("unknown option 'speed=fast'"), o.getMessage());
    }

    @Test
    void gpuBackendsWithoutDevicesSayWhy() {
        for (String b : new String[] {"cuda", "hip"}) {
            try (Session s = NunaRuntime.open(b, null)) {
                // A GPU is present: nothing to check here (the gpu-tagged tests run it).
                System.out.println(b + " available: " + s.report().lines().filter(l -> l.startsWith("device")).findFirst().orElse(""));
            } catch (RuntimeFailure e) {
                assertEquals(RuntimeFailure.Status.UNAVAILABLE, e.status());
                assertTrue(e.getMessage().startsWith(b + " backend unavailable: "), e.getMessage());
            }
        }
    }

    @Test
    void autoNamesEveryBackendItSkipped() {
        try (Session s = NunaRuntime.open("auto", null)) {
            s.load(Tables.allgather2()).allocate().launch().verify();
            LaunchReport rep = s.parsedReport();
            if (rep.get("backend").equals("host")) {
                assertTrue(rep.get("backends-skipped").contains("cuda: "), rep.text());
                assertTrue(rep.get("backends-skipped").contains("hip: "), rep.text());
            }
        }
    }

    @Test
    void namesOutsideTheBasicPlaneSurviveTheRoundTrip() {
        // U+1D538 (four UTF-8 bytes): modified UTF-8 would turn it into two three-byte surrogates.
        String name = "ag\uD835\uDD38";
        try (Session s = NunaRuntime.open("host", null)) {
            s.load(Tables.allgather2().replace("name=ag2", "name=" + name)).allocate().launch().verify();
            assertTrue(s.parsedReport().get("plan").startsWith(name + " (allgather"), s.report());
        }
    }

    @Test
    void failuresKeepTheirKind() {
        // An argument error at open whose message names no option: the kind comes from the
        // native status, not from the message's words (which would have read UNAVAILABLE).
        RuntimeFailure tooLong = assertThrows(RuntimeFailure.class, () -> NunaRuntime.open("host", "cus=8 ".repeat(100)));
        assertEquals(RuntimeFailure.Status.ARGUMENT, tooLong.status(), tooLong.getMessage());
        assertTrue(tooLong.getMessage().contains("options too long"), tooLong.getMessage());
        // A device mismatch at load, an argument error at timing: each with its own status.
        try (Session s = NunaRuntime.open("host", "cus=4")) {
            RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> s.load(Tables.allgather2()));
            assertEquals(RuntimeFailure.Status.MISMATCH, e.status(), e.getMessage());
        }
        try (Session s = NunaRuntime.open("host", null)) {
            s.load(Tables.allgather2());
            RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> s.timeLaunches(3, true));
            assertEquals(RuntimeFailure.Status.ARGUMENT, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("needs buffers"), e.getMessage());
        }
        RuntimeFailure nul = assertThrows(RuntimeFailure.class, () -> NunaRuntime.open("host", "cus=8\0 dies=2"));
        assertEquals(RuntimeFailure.Status.ARGUMENT, nul.status());
        RuntimeFailure range = assertThrows(RuntimeFailure.class, () -> NunaRuntime.open("host", "timeout_ms=-5"));
        assertEquals(RuntimeFailure.Status.ARGUMENT, range.status());
    }
}
