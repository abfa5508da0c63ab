package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/cli.md and docs/errors.md promise about the command line: --emit adds to the default
 * outputs and --only replaces them, topo validate takes a bundled name, every option help shows
 * is documented, usage errors end with the line that points to help, sizes are labelled as
 * written, and topo show counts the peer map among the quantities it has a basis for.
 */
class CommandLinePromisesTest {
    @TempDir
    Path tmp;

    static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    static List<String> files(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A usage error: exit 2, the message, then the pointer to help as the last line; no stack trace. */
    static void usageError(CliRun r, String message, String command) {
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().endsWith("Try 'nunac help" + (command == null ? "" : " " + command) + "'.\n"), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void emitAddsToTheDefaultOutputs() throws Exception {
        Path out = tmp.resolve("emit");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-D", "ranks=4", "--emit", "svg", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("floorplan.svg", "outputs.sha256", "placement.h", "placement.json", "report.txt"), files(out));
    }

    @Test
    void onlyWritesExactlyWhatItNames() throws Exception {
        Path out = tmp.resolve("only");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-D", "ranks=4", "--only", "svg,json", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("floorplan.svg", "outputs.sha256", "placement.json"), files(out));
    }

    @Test
    void emitAndOnlyAreRefusedWithOneMessage() throws Exception {
        Path out = tmp.resolve("none");
        String plan = example("allgather-direct");
        usageError(CliRun.of(plan, "--topo", "nuna-4die", "--emit", "svg", "--only", "json", "-o", out.toString()),
                "nunac compile: --emit and --only: choose one (--emit adds to the default outputs, --only replaces them)\n", "compile");
        usageError(CliRun.of(plan, "--topo", "nuna-4die", "--only", ",", "-o", out.toString()), "nunac compile: --only: no output named", "compile");
        usageError(CliRun.of(plan, "--topo", "nuna-4die", "--only", "pdf", "-o", out.toString()),
                "nunac compile: --only: unknown output 'pdf' (known: ", "compile");
        assertFalse(Files.exists(out));
    }

    @Test
    void topoValidateTakesABundledNameLikeTopoShow() throws Exception {
        CliRun r = CliRun.of("topo", "validate", "mi300x");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("mi300x: OK: mi300x, 304 CUs, "), r.out());
        CliRun bad = CliRun.of("topo", "validate", "no-such-gpu");
        assertEquals(3, bad.exit(), bad.err());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().contains("no-such-gpu"), bad.err());
        // A file of the bundled name is read, as --topo reads it.
        Path here = Files.writeString(tmp.resolve("mi300x"), "{");
        CliRun file = CliRun.of("topo", "validate", here.toString());
        assertEquals(3, file.exit(), file.err());
        assertTrue(file.err().startsWith(here + ":"), file.err());
        usageError(CliRun.of("topo", "validate"), "nunac topo: usage: nunac topo validate NAME|PATH", "topo");
    }

    @Test
    void cliMdListsEveryOptionThatHelpShows() throws Exception {
        String doc = Files.readString(TestPaths.repoRoot().resolve("docs/cli.md"));
        Cli cli = new Cli(new Io(System.out, System.err));
        StringJoiner missing = new StringJoiner(", ");
        for (String name : cli.commandNames()) {
            CliRun help = CliRun.of("help", name);
            assertEquals(0, help.exit(), name);
            for (var o : CommandParser.options(Cli.command(name))) {
                String shown = o.longestName();
                assertTrue(help.out().contains(shown), name + " help lacks " + shown);
                if (!doc.contains("`" + shown)) missing.add(name + " " + shown);
            }
        }
        assertEquals("", missing.toString(), "options that nunac help shows and docs/cli.md does not list");
    }

    @Test
    void usageErrorsEndWithThePointerToHelp() throws Exception {
        String plan = example("allgather-direct");
        // the option parser
        usageError(CliRun.of("check", "--bogus", plan), "Unrecognized option: --bogus", "check");
        // options read by code shared between commands: the command that ran is named
        usageError(CliRun.of("check", plan, "--limit", "steps=x"), "nunac check: --limit steps=x: not an integer\n", "check");
        usageError(CliRun.of(plan, "--topo", "nuna-4die", "--nar", "x"), "nunac compile: --nar expects", "compile");
        usageError(CliRun.of("simulate", plan, "--topo", "nuna-4die", "--size", "12XB"), "nunac simulate: --size: size '12XB': unknown unit", "simulate");
        // usage errors found past the parser, reported as diagnostics
        Path xml = tmp.resolve("p.xml");
        assertEquals(0, CliRun.of("export", plan, "-D", "ranks=2", "-o", xml.toString()).exit());
        usageError(CliRun.of("check", xml.toString(), "-D", "ranks=4"), "nunac: error: -D ranks: only .msccl plans have parameters", "check");
        usageError(CliRun.of(plan, "--topo", "nuna-4die", "--tune", "nosuch"), "--tune expects NAME=v1,v2,...", "compile");
        // hundreds of sizes would run the searches for an hour: refused before any runs
        StringBuilder sizes = new StringBuilder("1KB");
        for (int i = 2; i <= 100; i++) sizes.append(',').append(i).append("KB");
        usageError(CliRun.of("compare", plan, "--topo", "nuna-4die", "--sizes", sizes.toString()),
                "nunac compare: --sizes: 100 sizes; at most 16\n", "compare");
        usageError(CliRun.of(plan, "--topo", ""), "--topo needs a bundled spec name or a file", "compile");
        // no command recognised
        usageError(CliRun.of("frobnicate"), "nunac: unknown command 'frobnicate'", null);
        usageError(CliRun.of("help", "frobnicate"), "no help for unknown command 'frobnicate'", null);
    }

    @Test
    void compareLabelsSizesAsTheUserWroteThem() throws Exception {
        String plan = example("allgather-direct");
        CliRun r = CliRun.of("compare", plan, "--topo", "nuna-4die", "-D", "ranks=4", "--sizes", "100KB,1MiB", "--policies", "ua");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("100KB") && r.out().contains("1MiB"), r.out());
        assertFalse(r.out().contains("100kB") || r.out().contains("1048576B"), r.out());
        Path out = tmp.resolve("plots");
        CliRun p = CliRun.of("compare", plan, "--topo", "nuna-4die", "-D", "ranks=4", "--sizes", "1MiB,100KB", "--policies", "ua",
                "--plot", "-o", out.toString());
        assertEquals(0, p.exit(), p.err());
        String speedup = Files.readString(out.resolve("speedup.svg"));
        assertTrue(speedup.contains(">1MiB</text>") && speedup.contains(">100KB</text>"), speedup);
        assertTrue(Files.readString(out.resolve("store-latency.svg")).contains(", 1MiB: simulated one-way store latency"));
        usageError(CliRun.of("compare", plan, "--topo", "nuna-4die", "--sizes", "1MB,1000KB"),
                "nunac compare: --sizes: 1MB and 1000KB are the same size\n", "compare");
        usageError(CliRun.of("compare", plan, "--topo", "nuna-4die", "--sizes", "1MB,1MB"), "nunac compare: --sizes: 1MB is given twice\n",
                "compare");
        usageError(CliRun.of("compare", plan, "--topo", "nuna-4die", "--sizes", "1MB,lots"), "size 'lots'", "compare");
    }

    @Test
    void sizesNoUserWroteUseTheCommandLinesUnits() {
        assertEquals("100KB", Sizes.format(100_000));
        assertEquals("1MB", Sizes.format(1_000_000));
        assertEquals("1048576B", Sizes.format(1 << 20));
        assertEquals(100_000, Sizes.parse(Sizes.format(100_000), "--size"));
    }

    @Test
    void topoShowListsThePeerMapWithItsBasis() throws Exception {
        CliRun r = CliRun.of("topo", "show", "mi300x");
        assertEquals(0, r.exit(), r.err());
        String assumed = r.out().lines().filter(l -> l.startsWith("  assumed: ")).findFirst().orElseThrow();
        assertTrue(assumed.contains("scaleUp.peers"), assumed);
        // A measured table in an override moves it to measured.
        List<String> rows = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            List<String> peers = new ArrayList<>();
            for (int p = 0; p < 8; p++) if (p != g) peers.add(Integer.toString(p));
            rows.add("[" + String.join(",", peers) + "]");
        }
        Path ov = Files.writeString(tmp.resolve("measured.json"), "{\"scaleUp\": {\"peers\": [" + String.join(",", rows)
                + "], \"basis\": \"measured\", \"source\": \"nunac\"}}");
        CliRun m = CliRun.of("topo", "show", "mi300x", "--topo-override", ov.toString());
        assertEquals(0, m.exit(), m.err());
        assertFalse(m.out().contains("scaleUp.peers"), m.out());
        String before = r.out().lines().filter(l -> l.startsWith("provenance: ")).findFirst().orElseThrow();
        String after = m.out().lines().filter(l -> l.startsWith("provenance: ")).findFirst().orElseThrow();
        assertTrue(before.contains(" 12 assumed") && after.contains("3 measured") && after.contains(" 11 assumed"), before + " / " + after);
        // A clos network has no peer map to list.
        assertFalse(CliRun.of("topo", "show", "h200").out().contains("scaleUp.peers"));
    }
}
