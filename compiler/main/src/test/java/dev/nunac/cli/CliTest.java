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
        CliRun r = CliRun.of("check", "--bogus", example("allgather-direct"));
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("Unrecognized option: --bogus"), r.err());
        assertTrue(r.err().contains("nunac help check"), r.err());
    }

    @Test
    void unknownCommandIsAUsageError() {
        CliRun r = CliRun.of("frobnicate");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown command 'frobnicate'"), r.err());
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
        CliRun r = CliRun.of("check");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("missing PLAN"), r.err());
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
        CliRun r = CliRun.of("check", example("allgather-direct"), "--limit", "bogus=3");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown limit 'bogus'"), r.err());
    }

    @Test
    void loopLimitIsConfigurable() {
        CliRun r = CliRun.of("check", example("allgather-direct"), "--limit", "loop-iterations=10");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("loop iterations in all (raise it with --limit loop-iterations=N)"), r.err());
    }

    @Test
    void errorKindsMapToTheDocumentedExitCodes() {
        Map<ErrorKind, Integer> codes = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) codes.put(k, Cli.exitCode(k));
        assertEquals(Map.of(ErrorKind.PLAN, 1, ErrorKind.USAGE, 2, ErrorKind.INPUT, 3), codes);
    }
}
