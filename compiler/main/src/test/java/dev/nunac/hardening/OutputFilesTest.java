package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.cli.Cli;
import dev.nunac.cli.Io;
import dev.nunac.emit.OutputFiles;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outputs are all-or-nothing and bad output folders get clear messages (docs/errors.md, exit 3).
 * Tests may run as root, for whom permission bits do not stop writes: an unwritable folder is
 * made by putting it under a regular file, and the permission-bit case is skipped for root.
 */
class OutputFilesTest {
    static String message(Runnable r) {
        CompileException e = assertThrows(CompileException.class, r::run);
        assertEquals(ErrorKind.INPUT, e.kind());
        return e.diagnostics().get(0).format();
    }

    static List<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void failureWhileWritingLeavesThePreviousOutputsIntact(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("placement.json"), "old json", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("report.txt"), "old report", StandardCharsets.UTF_8);
        // The second file cannot be encoded (a lone surrogate): the write fails after the first temporary file.
        OutputFiles out = new OutputFiles().add("placement.json", "new json").add("report.txt", "bad \uD800");
        String m = message(() -> out.writeTo(dir));
        assertEquals(dir.resolve("report.txt") + ": error: cannot write output: its text is not valid Unicode (a lone surrogate);"
                + " no output was changed", m);
        assertEquals("old json", Files.readString(dir.resolve("placement.json"), StandardCharsets.UTF_8));
        assertEquals("old report", Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8));
        assertEquals(List.of("placement.json", "report.txt"), names(dir), "no temporary files left");
    }

    @Test
    void failureWhileStreamingLeavesNoFolderItCreated(@TempDir Path dir) {
        Path target = dir.resolve("out");
        // Written as it is made, past the first buffer, and failing there: nothing is left, not even the folder.
        OutputFiles out = new OutputFiles().withManifest().add("report.txt", "r")
                .add("placement.json", (OutputFiles.Content) o -> o.append("x".repeat(300_000)).append("\uD800").append("y"));
        assertEquals(target.resolve("placement.json") + ": error: cannot write output: its text is not valid Unicode (a lone surrogate);"
                + " no output was changed", message(() -> out.writeTo(target)));
        assertFalse(Files.exists(target));
    }

    @Test
    void folderInTheWayOfAnOutputWritesNothing(@TempDir Path dir) throws Exception {
        Files.createDirectory(dir.resolve("report.txt"));
        OutputFiles out = new OutputFiles().add("placement.json", "new").add("report.txt", "r");
        assertEquals(dir.resolve("report.txt") + ": error: cannot write output: a folder of that name is in the way",
                message(() -> out.writeTo(dir)));
        assertEquals(List.of("report.txt"), names(dir));
    }

    @Test
    void missingParentFolder(@TempDir Path dir) {
        Path target = dir.resolve("no/such/out");
        assertEquals(target + ": error: cannot create the output folder: its parent folder does not exist",
                message(() -> new OutputFiles().add("a", "b").writeTo(target)));
    }

    @Test
    void outputFolderIsAFile(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("out"), "x", StandardCharsets.UTF_8);
        assertEquals(f + ": error: output folder is a file", message(() -> new OutputFiles().add("a", "b").writeTo(f)));
    }

    @Test
    void unwritableOutputFolderThroughTheCli(@TempDir Path dir) throws Exception {
        // A folder under a regular file can be neither created nor written, whoever runs the test.
        Path file = Files.writeString(dir.resolve("file"), "x", StandardCharsets.UTF_8);
        Path out = file.resolve("out");
        CliRun r = CliRun.of(TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", "mi300x",
                "-D", "ranks=2", "-o", out.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals(out + ": error: cannot create the output folder: its parent folder does not exist\n", r.err());
    }

    @Test
    void readOnlyOutputFolder(@TempDir Path dir) throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "permission bits do not bind root");
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assertEquals(ro + ": error: output folder is not writable", message(() -> new OutputFiles().add("a", "b").writeTo(ro)));
            assertFalse(Files.exists(ro.resolve("a")));
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** Makes a special file with a system tool ({@code mkfifo}, {@code mknod}); false where that is not possible. */
    static boolean make(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String plan() {
        return TestPaths.examples().resolve("allgather-direct.msccl").toString();
    }

    static boolean isSpecial(Path p) throws IOException {
        return Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
    }

    @Test
    void fifoAtAnOutputPathIsRefusedAndLeftInPlace(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("plan.xml");
        Assumptions.assumeTrue(make("mkfifo", fifo.toString()), "mkfifo is not available");
        CliRun r = CliRun.of("export", plan(), "-D", "ranks=2", "-o", fifo.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals(fifo + ": error: cannot write output: it is not a regular file (a device, FIFO or socket), which nunac never"
                + " replaces\n", r.err());
        assertTrue(isSpecial(fifo), "the FIFO is still there");
        assertEquals(List.of("plan.xml"), names(dir), "no temporary file left");
    }

    @Test
    void anOutputPathNoOutputCanTakeIsRefusedBeforeThePlanIsReadOrSearched(@TempDir Path dir) throws Exception {
        // The plan does not exist: the output path is what is reported, so it was looked at first.
        String missing = dir.resolve("absent.msccl").toString();
        Path c = java.nio.file.Files.createDirectory(dir.resolve("c"));
        Path fifo = c.resolve("speedup.svg");
        Assumptions.assumeTrue(make("mkfifo", fifo.toString()), "mkfifo is not available");
        CliRun r = CliRun.of("compare", missing, "--topo", "nuna-4die", "--sizes", "1MB", "--plot", "-o", c.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals(fifo + ": error: cannot write output: it is not a regular file (a device, FIFO or socket), which nunac never"
                + " replaces\n", r.err());
        assertTrue(isSpecial(fifo), "the FIFO is still there");
        Path o = java.nio.file.Files.createDirectory(dir.resolve("o"));
        Path manifest = o.resolve("outputs.sha256");
        assertTrue(make("mkfifo", manifest.toString()));
        r = CliRun.of(missing, "--topo", "nuna-4die", "-o", o.toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().startsWith(manifest + ": error: cannot write output: it is not a regular file"), r.err());
        assertEquals(List.of("outputs.sha256"), names(o));
        r = CliRun.of(missing, "--topo", "nuna-4die", "-o", dir.resolve("no/such/folder").toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().endsWith("error: cannot create the output folder: its parent folder does not exist\n"), r.err());
    }

    @Test
    void specialFileInsideTheOutputFolderIsRefusedBeforeAnythingIsWritten(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectory(dir.resolve("out"));
        Path json = out.resolve("placement.json");
        // A device node where one can be made (as root), else a FIFO: both are "other" files.
        boolean device = make("mknod", json.toString(), "c", "1", "3");
        Assumptions.assumeTrue(device || make("mkfifo", json.toString()), "neither mknod nor mkfifo works here");
        CliRun r = CliRun.of(plan(), "--topo", "nuna-4die", "-D", "ranks=2", "-o", out.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals(json + ": error: cannot write output: it is not a regular file (a device, FIFO or socket), which nunac never"
                + " replaces\n", r.err());
        assertTrue(isSpecial(json), (device ? "device node" : "FIFO") + " is still there");
        assertEquals(List.of("placement.json"), names(out), "nothing else written");
    }

    @Test
    void symbolicLinkToARegularFileIsFollowedAndKept(@TempDir Path dir) throws Exception {
        Path real = Files.writeString(dir.resolve("real.xml"), "old", StandardCharsets.UTF_8);
        Path link = Files.createSymbolicLink(dir.resolve("link.xml"), real.getFileName());
        assertEquals(0, CliRun.of("export", plan(), "-D", "ranks=2", "-o", link.toString()).exit());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertTrue(Files.readString(real, StandardCharsets.UTF_8).startsWith("<algo "), "the file it names is replaced");
        assertEquals(List.of("link.xml", "real.xml"), names(dir));
    }

    @Test
    void danglingSymbolicLinkIsRefused(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("report.txt"), dir.resolve("nowhere"));
        assertEquals(link + ": error: cannot write output: it is a symbolic link to nothing, which nunac never replaces",
                message(() -> new OutputFiles().add("placement.json", "j").add("report.txt", "r").writeTo(dir)));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(List.of("report.txt"), names(dir));
    }

    @Test
    void danglingSymbolicLinkAsTheOutputFolderSaysSo(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("out"), dir.resolve("nowhere"));
        assertEquals(link + ": error: cannot create the output folder: it is a symbolic link to nothing",
                message(() -> new OutputFiles().add("a", "b").writeTo(link)));
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void theWroteLineEscapesTheOutputFolder(@TempDir Path dir) {
        Path out = dir.resolve("x\nFORGED: error: y");
        CliRun r = CliRun.of(plan(), "--topo", "nuna-4die", "-D", "ranks=2", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().startsWith("nunac: wrote " + dir + "/x\\nFORGED: error: y/placement.json"), r.err());
        assertFalse(r.err().contains("\nFORGED"), r.err());
    }

    @Test
    void aCompiledSetChecksWithSha256sumAndAMixedOneDoesNot(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        CliRun r = CliRun.of(plan, "--topo", "nuna-4die", "-D", "ranks=4", "--emit", "launch", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().endsWith(out.resolve("launch.txt") + ", " + out.resolve("outputs.sha256") + "\n"), r.err());
        List<String> listed = Files.readAllLines(out.resolve("outputs.sha256")).stream().map(l -> l.substring(66)).toList();
        assertEquals(List.of("placement.json", "placement.h", "report.txt", "launch.txt"), listed);
        Assumptions.assumeTrue(make("sha256sum", "--version"), "sha256sum is not available");
        String manifest = out.resolve("outputs.sha256").toString();
        assertTrue(make("sh", "-c", "cd '" + out + "' && sha256sum --check --quiet outputs.sha256"), manifest);
        // What a run killed between its renames leaves: one output of another run, the manifest of this one.
        Path other = dir.resolve("other");
        assertEquals(0, CliRun.of(plan, "--topo", "nuna-4die", "-D", "ranks=8", "--emit", "launch", "-o", other.toString()).exit());
        Files.copy(other.resolve("placement.h"), out.resolve("placement.h"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertFalse(make("sh", "-c", "cd '" + out + "' && sha256sum --check --quiet outputs.sha256"), manifest);
    }

    @Test
    void emptyOutputPathIsAUsageError(@TempDir Path dir) {
        CliRun r = CliRun.of("export", plan(), "-D", "ranks=2", "-o", "");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("nunac export: -o: an empty path names no file or folder\n"), r.err());
    }

    @Test
    void outputsGetTheModeOfAnOrdinaryNewFile(@TempDir Path dir) throws Exception {
        // Whatever the umask is, an output gets what a file created the ordinary way gets.
        Path ordinary = Files.createFile(dir.resolve("ordinary"));
        new OutputFiles().add("placement.json", "j").writeTo(dir);
        assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(ordinary)),
                PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("placement.json"))));
    }

    @Test
    void staleTemporaryFilesOfOursAreRemovedAndNothingElse(@TempDir Path dir) throws Exception {
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
        long me = ProcessHandle.current().pid();
        long gone = deadPid();
        List<String> stale = List.of(".placement.json." + gone + "-k3x.tmp", ".report.txt.1234567890123456789.tmp",
                ".plan.xml." + gone + "-a.tmp");
        List<String> kept = List.of(".placement.h." + me + "-live.tmp", ".placement.json.notours.tmp", ".notes.txt." + gone + "-a.tmp",
                "placement.json." + gone + "-a.tmp");
        for (String n : stale) Files.setLastModifiedTime(Files.createFile(dir.resolve(n)), old);
        for (String n : kept) Files.setLastModifiedTime(Files.createFile(dir.resolve(n)), old);
        String fresh = ".report.txt." + gone + "-fresh.tmp"; // its run may still be writing, on another machine
        Files.createFile(dir.resolve(fresh));
        new OutputFiles().add("placement.json", "j").writeTo(dir);
        List<String> want = new java.util.ArrayList<>(kept);
        want.add(fresh);
        want.add("placement.json");
        assertEquals(want.stream().sorted().toList(), names(dir));
    }

    /** A process id that is not running now. */
    static long deadPid() {
        for (long p = 4_000_000; ; p--) if (ProcessHandle.of(p).isEmpty()) return p;
    }

    @Test
    void failedWritesToStandardOutputAreOneErrorWithExit3() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.OutputStream full = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        PrintStream out = new PrintStream(full, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new Cli(new Io(out, e, () -> "No space left on device")).run("export", plan(), "-D", "ranks=2");
        assertEquals(3, code);
        assertEquals("nunac: error: cannot write to standard output: No space left on device\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void standardOutputOnAFullDeviceFailsTheRun() throws Exception {
        java.io.File devFull = new java.io.File("/dev/full");
        Assumptions.assumeTrue(devFull.exists(), "no /dev/full here");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(javaBin, "-XX:TieredStopAtLevel=1", "-cp", cp, "dev.nunac.cli.Main", "ir", plan(), "-D", "ranks=2")
                .redirectOutput(devFull).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "nunac did not finish");
        assertEquals("nunac: error: cannot write to standard output: No space left on device\n", err);
        assertEquals(3, p.exitValue());
    }

    @Test
    void simulateWritesItsFilesBeforeItPrints(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("csv"), "x", StandardCharsets.UTF_8);
        CliRun r = CliRun.of("simulate", plan(), "--topo", "nuna-4die", "-D", "ranks=2", "--csv", file.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals(file + ": error: output folder is a file\n", r.err());
        assertEquals("", r.out(), "nothing printed for a run that failed");
    }
}
