package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.nunac.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options are refused before the plan is read and before any pass runs: a bad option next to a
 * plan that does not parse (or does not exist) is reported as the option's usage error, not as
 * the plan's error, and nothing is written.
 */
class OptionsBeforeWorkTest {
    @TempDir
    Path tmp;

    /** A plan that does not parse: were it read first, its syntax error (exit 1) would be reported. */
    Path badPlan() throws Exception {
        return Files.writeString(tmp.resolve("bad.msccl"), "plan x {\n");
    }

    static void refused(CliRun r, String message, String command) {
        CommandLinePromisesTest.usageError(r, message, command);
    }

    @Test
    void aGranularityTheTopologyLacksIsRefusedBeforeThePlan() throws Exception {
        String plan = badPlan().toString();
        Path out = tmp.resolve("out");
        assertEquals(1, CliRun.of(plan, "--topo", "nuna-4die", "-o", out.toString()).exit(), "the plan alone is a plan error");
        refused(CliRun.of(plan, "--topo", "nuna-4die", "--nar", "3", "-o", out.toString()),
                "--nar 3: topology nuna-4die supports granularities 1, 2, 4, 6, 12", "compile");
        refused(CliRun.of("simulate", plan, "--topo", "nuna-4die", "--nar", "3"), "--nar 3: topology nuna-4die", "simulate");
        refused(CliRun.of("compare", plan, "--topo", "nuna-4die", "--nar", "5", "--sizes", "1MB"), "--nar 5: topology nuna-4die", "compare");
        assertFalse(Files.exists(out));
    }

    @Test
    void tuneAndDumpAfterAreCheckedBeforeThePlanIsRead() throws Exception {
        String missing = tmp.resolve("no-such.msccl").toString();
        refused(CliRun.of(missing, "--topo", "nuna-4die", "--tune", "x"), "--tune expects NAME=v1,v2,..., got 'x'", "compile");
        refused(CliRun.of(missing, "--topo", "nuna-4die", "--tune", "ranks=4,8", "--dump-after", "check"),
                "--dump-after and --tune: choose one", "compile");
        refused(CliRun.of(badPlan().toString(), "--topo", "nuna-4die", "--tune", "ranks=x"), "--tune ranks=x: not an integer or boolean",
                "compile");
    }

    @Test
    void placedJsonOfAPlanThatIsNotJsonIsRefusedBeforeItIsRead() throws Exception {
        refused(CliRun.of(badPlan().toString(), "--topo", "nuna-4die", "--emit", "placed-json", "-o", tmp.resolve("o").toString()),
                "--emit placed-json: " + tmp.resolve("bad.msccl") + " is not an MSCCL++ execution plan (.json)", "compile");
    }

    @Test
    void e2eChecksItsLimitsBeforeReadingTheWorkload() {
        refused(CliRun.of("e2e", tmp.resolve("no-such.json").toString(), "--topo", "nuna-4die", "--limit", "x=1"),
                "nunac e2e: --limit: unknown limit 'x'", "e2e");
    }

    @Test
    void exportChecksItsOutputBeforeReadingThePlan() throws Exception {
        refused(CliRun.of("export", badPlan().toString(), "-o", ""), "-o: an empty path names no file or folder", "export");
    }
}
