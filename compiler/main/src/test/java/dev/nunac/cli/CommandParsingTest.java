package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import org.junit.jupiter.api.Test;

/** How the command line is read (picocli, set up in Cli): where options may go, what is refused, what help shows. */
class CommandParsingTest {
    static final String PLAN = TestPaths.examples().resolve("allgather-direct.msccl").toString();

    @Test
    void optionsMayComeBeforeThePlan() {
        CliRun r = CliRun.of("check", "-D", "ranks=4", PLAN);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains(" 4 ranks"), r.out());
        assertEquals(0, CliRun.of("check", "-Dranks=4", "--limit=steps=1000", PLAN).exit());
    }

    @Test
    void aDefineWithoutAValueSaysHowToGiveOne() {
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "-D", "ranks"), "nunac check: -D ranks needs a value: -D ranks=VALUE\n",
                "check");
    }

    @Test
    void anOptionOfOneValueGivenTwiceIsRefused() {
        CommandLinePromisesTest.usageError(CliRun.of(PLAN, "--topo", "nuna-4die", "--topo", "mi300x"),
                "nunac compile: option '--topo' (TOPOLOGY) should be specified only once", "compile");
    }

    @Test
    void aMissingOptionValueIsAUsageError() {
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "--limit"), "nunac check: Missing required parameter for option '--limit'",
                "check");
    }

    @Test
    void anArgumentStartingWithAtIsAFileNameNotAnArgumentFile() {
        CliRun r = CliRun.of("check", "@args.msccl");
        assertEquals(3, r.exit(), r.err());
        assertEquals("@args.msccl: error: no such file\n", r.err());
    }

    @Test
    void longOptionsAreSpelledInFull() {
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "--verb"), "nunac check: Unrecognized option: --verb\n", "check");
        CommandLinePromisesTest.usageError(CliRun.of(PLAN, "--to", "nuna-4die"), "nunac compile: Unrecognized option: --to\n", "compile");
    }

    @Test
    void oddArgumentsAreUsageErrorsWithOneLine() {
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "-"), "nunac check: expected one PLAN, got 2: " + PLAN + " -\n", "check");
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "--=x"), "nunac check: Unrecognized option: --=x\n", "check");
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "-D", "=5"), "nunac check: -D expects name=value, got '=5'\n", "check");
        CommandLinePromisesTest.usageError(CliRun.of("check", PLAN, "-D"), "nunac check: Missing required parameter for option '-D'", "check");
    }

    @Test
    void everyCommandTakesVerboseAndHelp() {
        for (String name : new Cli(new Io(System.out, System.err)).commandNames()) {
            CliRun help = CliRun.of(name, "--help");
            assertEquals(0, help.exit(), name);
            assertTrue(help.out().startsWith("usage: nunac " + name + " "), help.out());
            assertTrue(help.out().contains("--verbose") && help.out().contains("-h, --help"), name + ": " + help.out());
            assertEquals(help.out(), CliRun.of("help", name).out());
            assertEquals(name, CommandParser.name(Cli.command(name)), "the table's name is the annotation's");
        }
    }

    @Test
    void versionAndOverview() {
        CliRun v = CliRun.of("--version");
        assertEquals(0, v.exit());
        assertEquals("nunac " + Cli.version() + "\n", v.out());
        CliRun o = CliRun.of("--help");
        assertTrue(o.out().contains("  check      check a plan: well-formedness, deadlock freedom, the collective's postcondition\n"), o.out());
    }
}
