package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rename that fails part-way through the output set puts back the outputs already replaced
 * (docs/errors.md, output folder): the previous set survives, whatever the failing file.
 */
class SetReplacementTest {
    /** Renames normally, except onto a file named {@code refused}, as a sticky folder or an immutable file would. */
    static SetReplacement.Mover refusing(String refused) {
        return (from, to) -> {
            if (to.getFileName().toString().equals(refused)) throw new java.nio.file.FileSystemException(to.toString(), null, "Operation not permitted");
            OutputFiles.move(from, to);
        };
    }

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    static OutputFiles three() {
        return new OutputFiles().add("placement.json", "new json").add("placement.h", "new h").add("report.txt", "new report");
    }

    @Test
    void aFailedLastRenameLeavesThePreviousSet(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("placement.json"), "old json");
        Files.writeString(dir.resolve("placement.h"), "old h");
        Files.writeString(dir.resolve("report.txt"), "old report");
        Files.setPosixFilePermissions(dir.resolve("placement.h"), PosixFilePermissions.fromString("rw-r-----"));
        long inode = (Long) Files.getAttribute(dir.resolve("placement.json"), "unix:ino");
        CompileException e = assertThrows(CompileException.class, () -> three().writeTo(dir, refusing("report.txt")));
        assertEquals(ErrorKind.INPUT, e.kind());
        assertEquals(dir.resolve("report.txt") + ": error: cannot replace it: Operation not permitted; the outputs already replaced"
                + " were put back, so none changed", e.diagnostics().get(0).format());
        assertEquals("old json", read(dir.resolve("placement.json")));
        assertEquals("old h", read(dir.resolve("placement.h")));
        assertEquals("old report", read(dir.resolve("report.txt")));
        assertEquals(inode, (Long) Files.getAttribute(dir.resolve("placement.json"), "unix:ino"), "the old file itself is back");
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("placement.h"))));
        assertEquals(List.of("placement.h", "placement.json", "report.txt"), names(dir), "no temporary or second names left");
    }

    @Test
    void outputsThatWereNewAreRemovedAgain(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("report.txt"), "old report");
        CompileException e = assertThrows(CompileException.class, () -> three().writeTo(dir, refusing("report.txt")));
        assertTrue(e.diagnostics().get(0).format().endsWith("so none changed"), e.diagnostics().get(0).format());
        assertEquals(List.of("report.txt"), names(dir));
        assertEquals("old report", read(dir.resolve("report.txt")));
    }

    @Test
    void aFailedFirstRenameChangesNothing(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("placement.json"), "old json");
        CompileException e = assertThrows(CompileException.class, () -> three().writeTo(dir, refusing("placement.json")));
        assertEquals(dir.resolve("placement.json") + ": error: cannot replace it: Operation not permitted; no output was changed",
                e.diagnostics().get(0).format());
        assertEquals(List.of("placement.json"), names(dir));
    }

    @Test
    void aSuccessfulRunLeavesNoSecondNames(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("placement.json"), "old json");
        three().writeTo(dir);
        assertEquals(List.of("placement.h", "placement.json", "report.txt"), names(dir));
        assertEquals("new json", read(dir.resolve("placement.json")));
    }

    @Test
    void stickyFolderRefusalIsPredictedOnlyForAnotherUsersFile(@TempDir Path dir) throws Exception {
        Path mine = Files.writeString(dir.resolve("report.txt"), "x");
        Path temp = Files.writeString(dir.resolve(".t"), "y");
        assertNull(StickyFolder.refusal(mine, temp), "a folder without the sticky bit, or a file of ours");
        assertNull(StickyFolder.refusal(dir.resolve("absent"), temp), "nothing to replace");
    }

    @Test
    void anotherUsersOutputInAStickyFolderIsRefusedBeforeAnyRename(@TempDir Path dir) throws Exception {
        // Only root can give files away; the sticky rule binds everyone else.
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs chown");
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(shared, "unix:mode", 01777);
        Path report = Files.writeString(shared.resolve("report.txt"), "old report");
        Files.setAttribute(report, "unix:uid", 65534);
        Path temp = Files.writeString(shared.resolve(".temp"), "new");
        Files.setAttribute(temp, "unix:uid", 4242);
        assertEquals("it belongs to another user (uid 65534) in a sticky folder, where only its owner may replace it",
                StickyFolder.refusal(report, temp));
        Files.setAttribute(temp, "unix:uid", 65534);
        assertNull(StickyFolder.refusal(report, temp), "its owner may");
    }
}
