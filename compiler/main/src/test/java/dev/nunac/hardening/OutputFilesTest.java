package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.emit.OutputFiles;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
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
        assertTrue(m.startsWith(dir + ": error: cannot write outputs: "), m);
        assertEquals("old json", Files.readString(dir.resolve("placement.json"), StandardCharsets.UTF_8));
        assertEquals("old report", Files.readString(dir.resolve("report.txt"), StandardCharsets.UTF_8));
        assertEquals(List.of("placement.json", "report.txt"), names(dir), "no temporary files left");
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
}
