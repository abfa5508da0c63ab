package dev.nunac.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Progress is shown on a terminal only, unless quiet; throttled; erased at the end. */
class ProgressTest {
    @Test
    void shownOnATerminalUnlessQuiet() {
        assertTrue(Progress.shown(true, false));
        assertFalse(Progress.shown(true, true));
        assertFalse(Progress.shown(false, false));
        assertFalse(Progress.shown(false, true));
    }

    @Test
    void terminalDevicesAreTerminalsFilesAndPipesAreNot() {
        assertTrue(Progress.isTerminalDevice("/dev/pts/3"));
        assertTrue(Progress.isTerminalDevice("/dev/tty1"));
        assertFalse(Progress.isTerminalDevice("pipe:[12345]"));
        assertFalse(Progress.isTerminalDevice("out/log.txt"));
        assertFalse(Progress.isTerminalDevice("/dev/null"));
    }

    @Test
    void notShownWritesNothing() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(b, true, StandardCharsets.UTF_8);
        Progress p = Progress.start(err, false, "compare", 3);
        assertSame(Progress.NONE, p);
        p.step("ua at 1MB");
        p.close();
        assertEquals(0, b.size());
    }

    @Test
    void oneLineRewrittenAtMostFourTimesASecondAndErased() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(b, true, StandardCharsets.UTF_8);
        long[] now = {0};
        Progress p = Progress.start(err, true, "compare", 3, () -> now[0]);
        now[0] = 300_000_000L;
        p.step("auto at 1MB");
        now[0] = 310_000_000L;
        p.step("ua at 1MB"); // too soon: not written
        now[0] = 700_000_000L;
        p.step("nap at 1MB");
        p.close();
        String s = b.toString(StandardCharsets.UTF_8);
        assertFalse(s.contains("\n"), s);
        assertTrue(s.contains("\rnunac: compare 1/3: auto at 1MB"), s);
        assertFalse(s.contains("2/3"), s);
        assertTrue(s.contains("\rnunac: compare 3/3: nap at 1MB"), s);
        int width = "nunac: compare 1/3: auto at 1MB\u2026".length();
        assertTrue(s.endsWith("\r" + " ".repeat(width) + "\r"), s);
    }
}
