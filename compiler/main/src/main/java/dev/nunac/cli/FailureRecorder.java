package dev.nunac.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Passes bytes through and keeps the reason of the first write that failed (a full disk, a closed pipe). */
final class FailureRecorder extends FilterOutputStream {
    private volatile String failure;

    FailureRecorder(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw record(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw record(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw record(e);
        }
    }

    private IOException record(IOException e) {
        if (failure == null) failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return e;
    }

    String failure() {
        return failure;
    }
}
