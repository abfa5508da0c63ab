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

    /** What a reader of an output folder checks: the manifest is there and every file it lists has its hash. */
    static boolean consistent(Path dir) throws IOException {
        Path m = dir.resolve(OutputFiles.MANIFEST);
        if (!Files.exists(m)) return false;
        for (String line : Files.readAllLines(m, StandardCharsets.UTF_8)) {
            String hash = line.substring(0, 64);
            Path f = dir.resolve(line.substring(66));
            if (!Files.exists(f) || !hash.equals(OutputFiles.sha256(Files.readAllBytes(f)))) return false;
        }
        return true;
    }

    static OutputFiles threeWithManifest(String tag) {
        return new OutputFiles().withManifest().add("placement.json", tag + " json").add("placement.h", tag + " h").add("report.txt", tag + " report");
    }

    /** Stands for a process killed after {@code renames} renames: nothing after them runs, not even the rollback. */
    static final class Killed extends RuntimeException {}

    static SetReplacement.Mover killedAfter(int renames, List<String> order) {
        int[] n = {0};
        return (from, to) -> {
            if (n[0]++ == renames) throw new Killed();
            order.add(to.getFileName().toString());
            OutputFiles.move(from, to);
        };
    }

    @Test
    void theManifestIsWrittenLastAndMatchesACompleteSet(@TempDir Path dir) throws Exception {
        threeWithManifest("old").writeTo(dir);
        List<String> order = new java.util.ArrayList<>();
        List<Path> written = threeWithManifest("new").writeTo(dir, killedAfter(99, order));
        assertEquals(List.of("placement.json", "placement.h", "report.txt", OutputFiles.MANIFEST), order);
        assertEquals(dir.resolve(OutputFiles.MANIFEST), written.get(3));
        assertTrue(consistent(dir));
        assertEquals(OutputFiles.sha256("new json".getBytes(StandardCharsets.UTF_8)) + "  placement.json\n"
                + OutputFiles.sha256("new h".getBytes(StandardCharsets.UTF_8)) + "  placement.h\n"
                + OutputFiles.sha256("new report".getBytes(StandardCharsets.UTF_8)) + "  report.txt\n", read(dir.resolve(OutputFiles.MANIFEST)));
    }

    @Test
    void aRunKilledBetweenRenamesLeavesASetItsManifestDoesNotMatch(@TempDir Path dir) throws Exception {
        for (int k = 1; k <= 3; k++) {
            Path d = Files.createDirectory(dir.resolve("k" + k));
            threeWithManifest("old").writeTo(d);
            int renames = k;
            assertThrows(Killed.class, () -> threeWithManifest("new").writeTo(d, killedAfter(renames, new java.util.ArrayList<>())));
            assertEquals("new json", read(d.resolve("placement.json")), "the first rename happened");
            assertTrue(!consistent(d), "after " + k + " of 4 renames the old manifest does not match the files");
        }
    }

    @Test
    void aFailedRollbackLeavesASetItsManifestDoesNotMatchAndSaysSo(@TempDir Path dir) throws Exception {
        threeWithManifest("old").writeTo(dir);
        // report.txt cannot be replaced, and the old placement.h cannot be renamed back either.
        SetReplacement.Mover mover = (from, to) -> {
            String name = to.getFileName().toString();
            boolean back = from.getFileName().toString().startsWith(".placement.h.");
            if (name.equals("report.txt") || (name.equals("placement.h") && back && Files.exists(to)
                    && read(to).equals("new h"))) {
                throw new java.nio.file.FileSystemException(to.toString(), null, "Operation not permitted");
            }
            OutputFiles.move(from, to);
        };
        CompileException e = assertThrows(CompileException.class, () -> threeWithManifest("new").writeTo(dir, mover));
        assertEquals(dir.resolve("report.txt") + ": error: cannot replace it: Operation not permitted; could not put back the previous"
                + " placement.h, which is now new and no longer matches outputs.sha256, so the folder reads as an incomplete set",
                e.diagnostics().get(0).format());
        assertEquals("old json", read(dir.resolve("placement.json")));
        assertEquals("new h", read(dir.resolve("placement.h")));
        assertTrue(!consistent(dir));
        assertEquals(List.of(OutputFiles.MANIFEST, "placement.h", "placement.json", "report.txt"), names(dir), "no temporary or second names left");
    }

    @Test
    void aManifestThatCannotBeReplacedPutsEveryOutputBack(@TempDir Path dir) throws Exception {
        threeWithManifest("old").writeTo(dir);
        CompileException e = assertThrows(CompileException.class, () -> threeWithManifest("new").writeTo(dir, refusing(OutputFiles.MANIFEST)));
        assertTrue(e.diagnostics().get(0).format().startsWith(dir.resolve(OutputFiles.MANIFEST) + ": error: cannot replace it:"
                + " Operation not permitted; the outputs already replaced were put back"), e.diagnostics().get(0).format());
        assertEquals("old report", read(dir.resolve("report.txt")));
        assertTrue(consistent(dir));
    }

    @Test
    void theManifestNameIsNotAnOutputName() {
        assertThrows(IllegalArgumentException.class, () -> new OutputFiles().withManifest().add(OutputFiles.MANIFEST, "x").writeTo(Path.of("unused")));
    }
}
