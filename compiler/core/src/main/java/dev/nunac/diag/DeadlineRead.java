package dev.nunac.diag;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a file that is not a regular file (a FIFO, a device, a link to one) within a deadline.
 * Opening a FIFO blocks until a writer comes, and reading it until the writer closes it; neither
 * can be interrupted, so both run on a daemon thread that the caller stops waiting for when the
 * deadline passes (the thread ends with the process). A FIFO fed by a producer that finishes in
 * time (process substitution, a pipe from a generator) reads as any file.
 */
public final class DeadlineRead {
    private DeadlineRead() {}

    /**
     * At most {@code maxBytes} + 1 bytes of {@code path} (one more than allowed tells the caller
     * the file is too large), or an INPUT error naming the file and {@code seconds} when the
     * bytes do not arrive in time; {@code raise} says how to allow longer.
     */
    public static byte[] read(Path path, long maxBytes, int seconds, String raise) throws IOException {
        int cap = (int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 16);
        java.util.concurrent.atomic.AtomicLong got = new java.util.concurrent.atomic.AtomicLong();
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (InputStream in = new FileInputStream(path.toFile())) {
                // Read in pieces, counting, so a timeout can say how much came.
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                byte[] buf = new byte[1 << 16];
                int n;
                while (out.size() < cap && (n = in.read(buf, 0, Math.min(buf.length, cap - out.size()))) >= 0) {
                    out.write(buf, 0, n);
                    got.set(out.size());
                }
                result.complete(out.toByteArray());
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            } catch (OutOfMemoryError e) {
                result.completeExceptionally(new CompileException(ErrorKind.INPUT, SourcePos.of(path.toString()),
                        "file is too large to hold in memory (" + got.get() + " bytes read)"));
            }
        }, "nunac-read");
        t.setDaemon(true);
        t.start();
        try {
            return result.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            String s = seconds + (seconds == 1 ? " second" : " seconds");
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(path.toString()), (got.get() == 0 ? "no input" : "input not complete ("
                    + got.get() + " bytes)") + " after " + s + ": it is a FIFO or device, which must deliver the whole file within " + s
                    + raise);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
