package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Renames a set of complete temporary files onto their targets so that a failed rename leaves
 * the previous set as it was. POSIX renames one file at a time, so before the first rename each
 * old output gets a second name (a hard link, or a copy where links are refused), every target
 * is checked for what refuses a rename that can be seen beforehand (a sticky folder), and when a
 * rename fails the outputs already replaced are renamed back from their second names (new ones
 * removed). Only a process killed in the milliseconds of the renames, or a failure whose
 * rollback is refused too, can leave a mixed set; a set that ends with a manifest
 * ({@link OutputFiles#MANIFEST}) renames it last, so such a set never matches its manifest.
 */
final class SetReplacement {
    /** One output: its temporary file, the path it replaces, and the old file's second name (null: none). */
    record Entry(String name, Path display, Path temp, Path target, boolean existed, Path backup) {}

    /** The rename itself; tests substitute one that fails. */
    interface Mover {
        void move(Path from, Path to) throws IOException;
    }

    private SetReplacement() {}

    /**
     * Renames every {@code temps.get(i)} onto {@code targets.get(i)} ({@code displays} name them in
     * messages). Returns the displays in the order written; on failure, the previous files are
     * back and a {@link CompileException} names the output that could not be replaced and why.
     */
    static List<Path> replace(List<Path> displays, List<Path> temps, List<Path> targets, Mover mover, boolean manifestLast) {
        List<Entry> entries = new ArrayList<>();
        try {
            for (int i = 0; i < temps.size(); i++) {
                Path target = targets.get(i);
                String refusal = StickyFolder.refusal(target, temps.get(i));
                if (refusal != null) throw failed(displays.get(i), refusal, List.of(), List.of(), false);
                boolean existed = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
                entries.add(new Entry(displays.get(i).getFileName().toString(), displays.get(i), temps.get(i), target, existed,
                        existed ? secondName(target) : null));
            }
            // An old file that could get no second name cannot be put back: rename it last, where no later failure undoes anything.
            // The manifest goes after all of them: until it is in place, the files do not match the one there.
            Entry last = manifestLast ? entries.remove(entries.size() - 1) : null;
            List<Entry> order = new ArrayList<>(entries.stream().filter(e -> !e.existed() || e.backup() != null).toList());
            order.addAll(entries.stream().filter(e -> e.existed() && e.backup() == null).toList());
            if (last != null) {
                order.add(last);
                entries.add(last);
            }
            List<Entry> done = new ArrayList<>();
            for (Entry e : order) {
                try {
                    mover.move(e.temp(), e.target());
                } catch (IOException ex) {
                    List<String> lost = restore(done, mover);
                    throw failed(e.display(), OutputFiles.reason(ex), done, lost, last != null);
                }
                done.add(e);
            }
            return displays;
        } finally {
            for (Entry e : entries) {
                if (e.backup() == null) continue;
                try {
                    Files.deleteIfExists(e.backup());
                } catch (IOException ignored) {
                    // hidden and named like our temporary files: a later run removes it
                }
            }
        }
    }

    /** A hard link to the old file, or a copy of it; null when neither can be made. */
    private static Path secondName(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        String name = target.getFileName().toString();
        try {
            Path p = TempFiles.name(dir, name);
            try {
                return Files.createLink(p, target);
            } catch (IOException | UnsupportedOperationException e) {
                return Files.copy(target, p, StandardCopyOption.COPY_ATTRIBUTES);
            }
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Puts back, newest first, the outputs already replaced; returns the names that could not be. */
    private static List<String> restore(List<Entry> done, Mover mover) {
        List<String> lost = new ArrayList<>();
        for (int i = done.size() - 1; i >= 0; i--) {
            Entry e = done.get(i);
            try {
                if (!e.existed()) Files.deleteIfExists(e.target());
                else if (e.backup() != null) mover.move(e.backup(), e.target());
                else lost.add(e.name());
            } catch (IOException ex) {
                lost.add(e.name());
            }
        }
        return lost;
    }

    private static CompileException failed(Path display, String why, List<Entry> done, List<String> lost, boolean manifest) {
        String rest;
        if (lost.isEmpty()) rest = done.isEmpty() ? "; no output was changed" : "; the outputs already replaced were put back, so none changed";
        else rest = "; could not put back the previous " + String.join(", ", lost) + ", which " + (lost.size() == 1 ? "is" : "are") + " now new"
                + (manifest ? " and no longer match" + (lost.size() == 1 ? "es " : " ") + OutputFiles.MANIFEST + ", so the folder reads as an incomplete set" : "");
        return new CompileException(ErrorKind.INPUT, SourcePos.of(display.toString()), "cannot replace it: " + why + rest);
    }
}
