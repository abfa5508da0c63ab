package dev.nunac.emit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The one refusal of a rename that can be seen before trying it: in a sticky folder (like
 * {@code /tmp}) only the owner of a file, the owner of the folder or root may replace the file.
 * Checked for every output before the first rename, so that a shared folder where another user
 * owns an old output fails with nothing changed. Where the file system has no Unix owners, no
 * refusal is predicted and the rename tells.
 */
final class StickyFolder {
    private static final int STICKY = 01000;

    private StickyFolder() {}

    /** Why {@code target} cannot be replaced by a process owning {@code ours}, or null when nothing says so. */
    static String refusal(Path target, Path ours) {
        try {
            if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) return null;
            Path dir = target.toAbsolutePath().getParent();
            int mode = (Integer) Files.getAttribute(dir, "unix:mode");
            if ((mode & STICKY) == 0) return null;
            int me = (Integer) Files.getAttribute(ours, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (me == 0) return null;
            int owner = (Integer) Files.getAttribute(target, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (owner == me || (Integer) Files.getAttribute(dir, "unix:uid") == me) return null;
            return "it belongs to another user (uid " + owner + ") in a sticky folder, where only its owner may replace it";
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return null;
        }
    }
}
