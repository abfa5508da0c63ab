package dev.nunac.compare;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line progress note on standard error for long commands: written only when standard error
 * is a terminal and {@code --quiet} was not given, rewritten in place ({@code \r}) at most four
 * times a second, and erased when the work is done, so that nothing of it stays in the terminal
 * and nothing reaches a file or a pipe. {@link #NONE} writes nothing.
 */
public final class Progress implements AutoCloseable {
    /** Progress that is never shown. */
    public static final Progress NONE = new Progress(null, "", 0, System::nanoTime);

    static final long MIN_INTERVAL_NS = 250_000_000L;

    private final PrintStream err;
    private final String what;
    private final int total;
    private final LongSupplier clock;
    private int done;
    private long lastNs = Long.MIN_VALUE;
    private int width;

    Progress(PrintStream err, String what, int total, LongSupplier clock) {
        this.err = err;
        this.what = what;
        this.total = total;
        this.clock = clock;
    }

    /** Whether progress is shown: on a terminal, unless quiet. */
    public static boolean shown(boolean terminal, boolean quiet) {
        return terminal && !quiet;
    }

    /**
     * Whether standard error is a terminal. Java 17 tells only whether standard input and output
     * are one ({@link System#console()}), which misses {@code nunac compare ... > table.txt} typed
     * at a terminal; where the system names the stream's device (Linux's /proc/self/fd/2), that
     * decides.
     */
    public static boolean terminal() {
        try {
            String dev = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
            return isTerminalDevice(dev);
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /** A terminal device's name: a pseudo-terminal or a console. */
    static boolean isTerminalDevice(String dev) {
        return dev.startsWith("/dev/pts/") || dev.startsWith("/dev/tty") || dev.equals("/dev/console");
    }

    /** Progress over {@code total} steps (0: unknown), written to {@code err} when {@code show}. */
    public static Progress start(PrintStream err, boolean show, String what, int total) {
        return start(err, show, what, total, System::nanoTime);
    }

    static Progress start(PrintStream err, boolean show, String what, int total, LongSupplier clock) {
        if (!show) return NONE;
        Progress p = new Progress(err, what, total, clock);
        p.write(what, true);
        return p;
    }

    /** The next step begins; {@code label} says what it is. Steps may come from several threads. */
    public synchronized void step(String label) {
        if (err == null) return;
        done++;
        String count = total > 0 ? " " + done + "/" + total : "";
        write(what + count + (label.isEmpty() ? "" : ": " + label), false);
    }

    private void write(String text, boolean force) {
        long now = clock.getAsLong();
        if (!force && lastNs != Long.MIN_VALUE && now - lastNs < MIN_INTERVAL_NS) return;
        lastNs = now;
        String line = "nunac: " + text + "\u2026";
        StringBuilder sb = new StringBuilder("\r").append(line);
        // blank what is left of a longer earlier line
        for (int i = line.length(); i < width; i++) sb.append(' ');
        width = Math.max(width, line.length());
        err.print(sb);
        err.flush();
    }

    /** Erases the line. */
    @Override
    public synchronized void close() {
        if (err == null || width == 0) return;
        err.print("\r" + " ".repeat(width) + "\r");
        err.flush();
        width = 0;
    }
}
