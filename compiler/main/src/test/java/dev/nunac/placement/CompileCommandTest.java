package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompileCommandTest {
    @TempDir
    Path tmp;

    static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    @Test
    void writesTheThreeFilesAndASecondRunIsByteIdentical() throws Exception {
        Path a = tmp.resolve("a"), b = tmp.resolve("b");
        for (Path out : new Path[] {a, b}) {
            CliRun r = CliRun.of(example("allgather-direct"), "--topo", "mi300x", "-D", "ranks=8", "-o", out.toString());
            assertEquals(0, r.exit(), r.err());
        }
        for (String f : new String[] {"placement.json", "placement.h", "report.txt", "outputs.sha256"}) {
            assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f);
        }
        try (var s = Files.list(a)) {
            assertEquals(4, s.count(), "no temporary files left behind");
        }
    }

    @Test
    void napNarHalvesHopsWithoutSpillsOnNuna4die() throws Exception {
        Path out = tmp.resolve("o");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-D", "ranks=8", "--size", "1MiB",
                "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        String report = Files.readString(out.resolve("report.txt"));
        double nap = value(report, "mean CU->port hops", 1), ua = value(report, "mean CU->port hops", 2);
        assertTrue(nap < ua / 2, report);
        for (String row : new String[] {"CU spills", "CU overflows", "stack spills", "stack overflows"}) {
            assertEquals(0, value(report, row, 1), row + "\n" + report);
        }
    }

    static double value(String report, String row, int column) {
        for (String line : report.split("\n")) {
            if (line.startsWith(row + " ")) return Double.parseDouble(line.substring(row.length()).trim().split("\\s+")[column - 1]);
        }
        throw new AssertionError("no row " + row + " in\n" + report);
    }

    @Test
    void headerCompilesWithGcc() throws Exception {
        assumeTrue(onPath("gcc"), "gcc not found: header compile check skipped");
        for (String topo : new String[] {"mi300x", "nuna-4die"}) {
            Path out = tmp.resolve(topo);
            assertEquals(0, CliRun.of(example("allreduce-allpairs"), "--topo", topo, "-D", "ranks=4", "-o", out.toString(),
                    "--emit", "header").exit());
            Path c = out.resolve("use.c");
            Files.writeString(c, "#include \"placement.h\"\n#include \"placement.h\"\n"
                    + "int first_cu(void) { return nunac_tb_cu[nunac_tb_offset[1]] + (int) nunac_tb_mask[0][0]; }\n");
            Process p = new ProcessBuilder("gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", c.toString(), "-o",
                    out.resolve("use.o").toString()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), log);
        }
    }

    static boolean onPath(String exe) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, exe))) return true;
        }
        return false;
    }

    @Test
    void dumpAfterPrintsThePassResult() {
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-D", "ranks=2", "--dump-after",
                "logical-allocation", "-o", tmp.resolve("d").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("group 0 threadblocks 2"), r.out());
        CliRun bad = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "--dump-after", "parse");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("unknown pass 'parse'"), bad.err());
    }

    @Test
    void usageErrors() {
        assertEquals(2, CliRun.of(example("allgather-direct")).exit(), "missing --topo");
        CliRun nar = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "--nar", "5", "-o", tmp.toString());
        assertEquals(2, nar.exit());
        assertEquals("nunac: error: --nar 5: topology nuna-4die supports granularities 1, 2, 4, 6, 12\n"
                + "Try 'nunac help compile'.\n", nar.err());
        assertEquals(2, CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "--policy", "x").exit());
        assertEquals(2, CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "--size", "1XB").exit());
        assertEquals(2, CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "--emit", "pdf").exit());
    }

    @Test
    void unknownTopologyIsAnInputError() {
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "no-such-gpu");
        assertEquals(3, r.exit());
        assertTrue(r.err().startsWith("no-such-gpu: error: no such topology"), r.err());
    }

    @Test
    void aBadTopologyIsReportedBeforeABadPlanThoughTheyLoadSideBySide() throws Exception {
        Path plan = Files.writeString(tmp.resolve("bad.msccl"), "program x allgather ranks 2 {\n  nonsense\n}\n");
        CliRun both = CliRun.of(plan.toString(), "--topo", "no-such-gpu", "-o", tmp.resolve("o").toString());
        assertEquals(3, both.exit(), both.err());
        assertTrue(both.err().startsWith("no-such-gpu: error: no such topology"), both.err());
        CliRun planOnly = CliRun.of(plan.toString(), "--topo", "nuna-4die", "-o", tmp.resolve("o").toString());
        assertEquals(1, planOnly.exit(), planOnly.err());
        assertTrue(planOnly.err().startsWith(plan + ":1:9: error: "), planOnly.err());
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    @Test
    void outputsThatNeedNoBaselineRenderAlone() throws Exception {
        Path out = tmp.resolve("h");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-D", "ranks=8", "--only", "header,svg",
                "-o", out.toString(), "--timings");
        assertEquals(0, r.exit(), r.err());
        try (var s = Files.list(out)) {
            assertEquals(java.util.List.of("floorplan.svg", "outputs.sha256", "placement.h"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertTrue(r.err().contains("emit + baseline + write"), r.err());
    }

    @Test
    void outputFolderThatIsAFileIsAnError() throws Exception {
        Path f = Files.writeString(tmp.resolve("file"), "x");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "nuna-4die", "-o", f.toString());
        assertEquals(3, r.exit());
        assertTrue(r.err().endsWith("error: output folder is a file\n"), r.err());
        assertEquals("x", Files.readString(f));
        assertFalse(Files.exists(tmp.resolve("file/placement.json")));
    }
}
