package dev.nunac.frontend;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Passes a stream through while checking that it is well-formed UTF-8 (no stray continuation
 * bytes, overlong forms, surrogates or code points past U+10FFFF), so that a streaming parser
 * never meets bad bytes itself: the JDK's XML parser would print its own complaint to the
 * process's standard error. The first bad byte is an INPUT error at its line and column.
 */
public final class Utf8Check extends FilterInputStream {
    private final String file;
    private int line = 1;
    private int col = 0;
    /** Continuation bytes still due, and the range the next one must fall in. */
    private int due;
    private int lo = 0x80;
    private int hi = 0xBF;

    public Utf8Check(String file, InputStream in) {
        super(in);
        this.file = file;
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0) check(c);
        else if (due > 0) fail("ends inside a multi-byte character");
        return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        for (int i = 0; i < n; i++) check(b[off + i] & 0xFF);
        if (n < 0 && due > 0) fail("ends inside a multi-byte character");
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long k = 0;
        while (k < n && read() >= 0) k++;
        return k;
    }

    private void check(int c) {
        if (due > 0) {
            if (c < lo || c > hi) fail(String.format(Locale.ROOT, "byte 0x%02X", c));
            due--;
            lo = 0x80;
            hi = 0xBF;
            return;
        }
        if (c == '\n') {
            line++;
            col = 0;
            return;
        }
        col++;
        if (c < 0x80) return;
        if (c >= 0xC2 && c <= 0xDF) {
            due = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            due = 2;
            if (c == 0xE0) lo = 0xA0; // overlong
            if (c == 0xED) hi = 0x9F; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            due = 3;
            if (c == 0xF0) lo = 0x90; // overlong
            if (c == 0xF4) hi = 0x8F; // past U+10FFFF
        } else {
            fail(String.format(Locale.ROOT, "byte 0x%02X", c));
        }
    }

    private void fail(String what) {
        throw new CompileException(ErrorKind.INPUT, new SourcePos(file, line, Math.max(1, col)), "not valid UTF-8 text: " + what);
    }
}
