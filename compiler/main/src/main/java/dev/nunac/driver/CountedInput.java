package dev.nunac.driver;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read and fails, as an INPUT error, at the first byte past the input-size limit. */
final class CountedInput extends FilterInputStream {
    private final String file;
    private final long limit;
    private long count;

    CountedInput(String file, InputStream in, long limit) {
        super(in);
        this.file = file;
        this.limit = limit;
    }

    @Override
    public int read() throws IOException {
        int b;
        try {
            b = super.read();
        } catch (IOException e) {
            throw failed(e);
        }
        if (b >= 0) add(1);
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        // Never asks for more than one byte past the limit, so a huge request cannot run ahead of the check.
        int n;
        try {
            n = super.read(b, off, (int) Math.min(len, limit - count + 1));
        } catch (IOException e) {
            throw failed(e);
        }
        if (n > 0) add(n);
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long k = super.skip(Math.min(n, limit - count + 1));
        if (k > 0) add(k);
        return k;
    }

    /** A read error as nunac's own message: a parser reading this stream would wrap it in its own words and class names. */
    private CompileException failed(IOException e) {
        return new CompileException(ErrorKind.INPUT, SourcePos.of(file), "cannot read: " + (e.getMessage() == null ? "input/output error" : e.getMessage()));
    }

    private void add(long n) {
        count += n;
        if (count > limit) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "file is more than " + limit
                    + " bytes; the limit is " + limit + " (raise it with --limit input-bytes=N)");
        }
    }
}
