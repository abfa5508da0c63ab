package dev.nunac.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small sweep (8 points of 2- and 4-GPU plans, seconds) run whole once; against it: 3 shards
 * merged (issue 21's acceptance), a resumed run, an interrupted one, and the merge's refusals.
 */
class SweepRunTest {
    @TempDir
    static Path shared;
    static Path specFile;
    static SweepSpec spec;
    static Path whole;

    static final SweepRun.Listener QUIET = (done, total, p) -> { };

    @BeforeAll
    static void runWhole() throws Exception {
        String ex = TestPaths.examples().toString().replace("\\", "\\\\");
        specFile = Files.writeString(shared.resolve("spec.json"), """
                {
                  "plans": ["%s/allgather-direct.msccl", {"plan": "%s/alltoall-direct.msccl", "name": "a2a"}],
                  "gpus": [2, 4],
                  "topologies": ["nuna-4die"],
                  "sizes": ["100KB", "1MB"],
                  "policies": ["auto", "ua", "nap+nar"]
                }
                """.formatted(ex, ex));
        spec = SpecReader.read(specFile);
        whole = shared.resolve("whole");
        SweepRun.Outcome o = SweepRun.run(spec, whole, Shard.ALL, QUIET);
        assertEquals(new SweepRun.Outcome(8, 8, 8, 0), o);
        SweepMerge.merge(whole, false).files().writeTo(whole);
    }

    /** Every file under a folder, by relative path. */
    static TreeMap<String, byte[]> contents(Path dir) throws Exception {
        TreeMap<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
        }
        return out;
    }

    static void assertSameFiles(Path expected, Path actual) throws Exception {
        TreeMap<String, byte[]> e = contents(expected), a = contents(actual);
        assertEquals(e.keySet(), a.keySet());
        for (String k : e.keySet()) assertArrayEquals(e.get(k), a.get(k), k);
    }

    @Test
    void threeShardsMergedEqualTheUnshardedSweepByteForByte(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("sharded");
        int computed = 0;
        for (int i = 0; i < 3; i++) {
            SweepRun.Outcome o = SweepRun.run(SpecReader.read(specFile), dir, new Shard(i, 3), QUIET);
            assertEquals(0, o.skipped());
            computed += o.computed();
        }
        assertEquals(8, computed);
        Path out = tmp.resolve("merged");
        Files.createDirectory(out);
        SweepMerge.merge(dir, false).files().writeTo(out);
        assertArrayEquals(Files.readAllBytes(whole.resolve(SweepMerge.CSV)), Files.readAllBytes(out.resolve(SweepMerge.CSV)));
        assertArrayEquals(Files.readAllBytes(whole.resolve(SweepMerge.MARKDOWN)), Files.readAllBytes(out.resolve(SweepMerge.MARKDOWN)));
        // the point files and the manifest too
        SweepMerge.merge(dir, false).files().writeTo(dir);
        assertSameFiles(whole, dir);
    }

    @Test
    void threeJobsWriteTheSameFilesAsOneLargestFirst(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("jobs");
        List<String> started = java.util.Collections.synchronizedList(new ArrayList<>());
        SweepRun.Outcome o = SweepRun.run(SpecReader.read(specFile), dir, Shard.ALL, 3, (done, total, p) -> started.add(done + "/" + total + " " + p.id()));
        assertEquals(new SweepRun.Outcome(8, 8, 8, 0), o);
        // numbered in the order taken, the 4-GPU 1 MB points first
        assertEquals(8, started.size());
        for (int i = 0; i < 8; i++) assertTrue(started.get(i).startsWith(i + "/8 "), started.toString());
        assertTrue(started.get(0).endsWith(".g4.nuna-4die.1MB") && started.get(1).endsWith(".g4.nuna-4die.1MB"), started.toString());
        SweepMerge.merge(dir, false).files().writeTo(dir);
        assertSameFiles(whole, dir);
    }

    @Test
    void aFailingJobStopsTheOthersTakingPointsAndIsRethrown(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("failing");
        RuntimeException stop = new IllegalStateException("stopped");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SweepRun.run(spec, dir, Shard.ALL, 2, (done, total, p) -> {
            if (done == 3) throw stop;
        }));
        assertTrue(e == stop, "the failure itself");
        try (Stream<Path> s = Files.list(dir.resolve(SweepRun.POINTS))) {
            assertEquals(3, s.count(), "the three points taken before the stop, complete, and no temporary files");
        }
        assertEquals(new SweepRun.Outcome(8, 8, 5, 3), SweepRun.run(spec, dir, Shard.ALL, 2, QUIET));
        SweepMerge.merge(dir, false).files().writeTo(dir);
        assertSameFiles(whole, dir);
    }

    @Test
    void theMergeHoldsEveryPointAndPolicyInSpecOrder() throws Exception {
        List<String> csv = Files.readAllLines(whole.resolve(SweepMerge.CSV));
        assertEquals(1 + 8 * 3, csv.size());
        assertTrue(csv.get(1).startsWith("allgather-direct.g2.nuna-4die.100KB,allgather-direct,,nuna-4die,2,2,100000,auto,"), csv.get(1));
        assertTrue(csv.get(3).contains(",nap+nar,nap+nar"), csv.get(3));
        assertTrue(csv.get(24).startsWith("a2a.g4.nuna-4die.1MB,a2a,,nuna-4die,4,"), csv.get(24));
        List<String> md = Files.readAllLines(whole.resolve(SweepMerge.MARKDOWN));
        assertEquals("| plan | parameters | topology | GPUs | size | UA (us) | auto | ua | nap+nar | auto's choice |", md.get(0));
        assertEquals(2 + 8, md.size());
        for (String row : md.subList(2, md.size())) assertTrue(row.contains(" | 1.00x | "), row);
    }

    @Test
    void aRerunWithSomePointFilesPresentComputesOnlyTheRest(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("resume");
        copy(whole, dir);
        List<String> ids = spec.points().stream().map(SweepSpec.Point::id).toList();
        for (String id : List.of(ids.get(1), ids.get(4), ids.get(7))) Files.delete(SweepRun.file(dir.resolve(SweepRun.POINTS), id));
        List<String> computed = new ArrayList<>();
        SweepRun.Outcome o = SweepRun.run(spec, dir, Shard.ALL, (done, total, p) -> computed.add(done + "/" + total + " " + p.id()));
        assertEquals(new SweepRun.Outcome(8, 8, 3, 5), o);
        assertEquals(List.of("0/3 " + ids.get(1), "1/3 " + ids.get(4), "2/3 " + ids.get(7)), computed);
        assertSameFiles(whole, dir);
        // nothing left to do
        assertEquals(new SweepRun.Outcome(8, 8, 0, 8), SweepRun.run(spec, dir, Shard.ALL, QUIET));
    }

    @Test
    void anInterruptedSweepResumesWhereItStopped(@TempDir Path tmp) throws Exception {
        // the last four points still to do, and the run stopped after two of them
        Path dir = tmp.resolve("stopped");
        copy(whole, dir);
        for (SweepSpec.Point p : spec.points().subList(4, 8)) Files.delete(SweepRun.file(dir.resolve(SweepRun.POINTS), p.id()));
        Files.delete(dir.resolve(SweepMerge.CSV));
        Files.delete(dir.resolve(SweepMerge.MARKDOWN));
        RuntimeException stop = new IllegalStateException("stopped");
        assertThrows(IllegalStateException.class, () -> SweepRun.run(spec, dir, Shard.ALL, (done, total, p) -> {
            if (done == 2) throw stop;
        }));
        try (Stream<Path> s = Files.list(dir.resolve(SweepRun.POINTS))) {
            assertEquals(6, s.count(), "the points finished before the stop, and no temporary files");
        }
        CompileException missing = assertThrows(CompileException.class, () -> SweepMerge.merge(dir, false));
        assertEquals(ErrorKind.INPUT, missing.kind());
        assertTrue(missing.getMessage().contains("2 of 8 points have no result (first: " + spec.points().get(6).id() + ")"), missing.getMessage());
        SweepMerge.Merged partial = SweepMerge.merge(dir, true);
        assertEquals(2, partial.missing());
        assertTrue(partial.files().files().get(SweepMerge.MARKDOWN).endsWith("\n2 points of the sweep have no result and are not in this table.\n"));
        assertEquals(new SweepRun.Outcome(8, 8, 2, 6), SweepRun.run(spec, dir, Shard.ALL, QUIET));
        SweepMerge.merge(dir, false).files().writeTo(dir);
        assertSameFiles(whole, dir);
    }

    @Test
    void aFolderOfAnotherSweepIsRefusedAndLeftAsItWas(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("other");
        copy(whole, dir);
        Path other = Files.writeString(tmp.resolve("other.json"), Files.readString(specFile).replace("\"1MB\"", "\"10MB\""));
        CompileException e = assertThrows(CompileException.class, () -> SweepRun.run(SpecReader.read(other), dir, Shard.ALL, QUIET));
        assertEquals(ErrorKind.INPUT, e.kind());
        assertTrue(e.getMessage().contains("this folder holds another sweep"), e.getMessage());
        assertSameFiles(whole, dir);
    }

    @Test
    void mergeRefusesWhatIsNotASweepFolderOrAPointFile(@TempDir Path tmp) throws Exception {
        CompileException none = assertThrows(CompileException.class, () -> SweepMerge.merge(tmp, false));
        assertTrue(none.getMessage().contains("not a sweep folder"), none.getMessage());
        Path dir = tmp.resolve("bad");
        copy(whole, dir);
        Path f = SweepRun.file(dir.resolve(SweepRun.POINTS), spec.points().get(2).id());
        Files.writeString(f, Files.readString(f).replace("\"time_ns\"", "\"time\""));
        CompileException bad = assertThrows(CompileException.class, () -> SweepMerge.merge(dir, false));
        assertEquals(ErrorKind.INPUT, bad.kind());
        assertTrue(bad.getMessage().startsWith(f + ":"), bad.getMessage());
        assertTrue(bad.getMessage().contains("$.rows[0]: missing required field 'time_ns'"), bad.getMessage());
    }

    static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
        assertFalse(contents(to).isEmpty());
    }
}
