package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.ErrorKind;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliTest {
    private static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    /** nunac with {@code args} exits {@code code} and says {@code fragment} on stderr. */
    private static CliRun refused(int code, String fragment, String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(code, r.exit(), r.err());
        assertTrue(r.err().contains(fragment), r.err());
        return r;
    }

    @Test
    void checkPrintsOneLineOk() {
        CliRun r = CliRun.of("check", example("allgather-direct"), "-D", "ranks=8");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().lines().count());
        assertTrue(r.out().contains(": OK: allgather"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void helpGoesToStdoutAndExitsZero() {
        for (String[] args : new String[][] {{"--help"}, {"help"}, {"help", "check"}, {"check", "--help"}}) {
            CliRun r = CliRun.of(args);
            assertEquals(0, r.exit(), String.join(" ", args));
            assertTrue(r.out().contains("usage"), r.out());
            assertEquals("", r.err());
        }
    }

    @Test
    void versionExitsZero() {
        CliRun r = CliRun.of("--version");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("nunac "));
    }

    @Test
    void badFlagIsAUsageError() {
        CliRun r = refused(2, "Unrecognized option: --bogus", "check", "--bogus", example("allgather-direct"));
        assertTrue(r.err().contains("nunac help check"), r.err());
    }

    @Test
    void unknownCommandIsAUsageError() {
        refused(2, "unknown command 'frobnicate'", "frobnicate");
    }

    @Test
    void noArgumentsPrintsUsageAndExitsTwo() {
        assertEquals(2, CliRun.of().exit());
    }

    @Test
    void missingFileIsAnInputError() {
        CliRun r = CliRun.of("check", "no/such/plan.msccl");
        assertEquals(3, r.exit());
        assertEquals("no/such/plan.msccl: error: no such file\n", r.err());
    }

    @Test
    void missingPlanArgument() {
        refused(2, "missing PLAN", "check");
    }

    @Test
    void unknownDefineIsAUsageError() {
        CliRun r = CliRun.of("check", example("allgather-direct"), "-D", "rank=8");
        assertEquals(2, r.exit());
        assertEquals("nunac: error: -D rank: the plan has no parameter 'rank' (it declares: ranks, tbs_per_peer)\n"
                + "Try 'nunac help check'.\n", r.err());
    }

    @Test
    void badLimitIsAUsageError() {
        refused(2, "unknown limit 'bogus'", "check", example("allgather-direct"), "--limit", "bogus=3");
    }

    @Test
    void loopLimitIsConfigurable() {
        refused(1, "loop iterations in all (raise it with --limit loop-iterations=N)", "check", example("allgather-direct"), "--limit",
                "loop-iterations=10");
    }

    @Test
    void errorKindsMapToTheDocumentedExitCodes() {
        Map<ErrorKind, Integer> codes = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) codes.put(k, Cli.exitCode(k));
        assertEquals(Map.of(ErrorKind.PLAN, 1, ErrorKind.USAGE, 2, ErrorKind.INPUT, 3), codes);
    }
}
