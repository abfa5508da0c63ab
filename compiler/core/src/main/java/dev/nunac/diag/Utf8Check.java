package dev.nunac.diag;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Passes a stream through while checking that it is well-formed UTF-8 (no stray continuation
 * bytes, overlong forms, surrogates or code points past U+10FFFF), so that a parser never meets
 * bad bytes itself: the JDK's XML parser would print its own complaint to the process's
 * standard error, and a JSON parser names the byte after a bad one. The first bad byte is an
 * INPUT error at its line and column; in a multi-byte sequence that breaks off, the bad byte is
 * the one the sequence starts with (a Latin-1 'é' is 0xE9, not the letter after it). A leading
 * byte-order mark is text like any other, but takes no column.
 */
public final class Utf8Check extends FilterInputStream {
    private final String file;
    private int line = 1;
    private int col = 0;
    private long offset;
    /** Continuation bytes still due, the range the next one must fall in, and the sequence's first byte and column. */
    private int due;
    private int lo = 0x80;
    private int hi = 0xBF;
    private int lead;
    private int leadCol;
    private boolean bom;

    public Utf8Check(String file, InputStream in) {
        super(in);
        this.file = file;
    }

    /** Checks a whole text held in memory. */
    public static void verify(String file, byte[] bytes) {
        Utf8Check c = new Utf8Check(file, InputStream.nullInputStream());
        for (byte b : bytes) c.check(b & 0xFF);
        c.end();
    }

    @Override
    public int read() throws IOException {
        int c = super.read();
        if (c >= 0) check(c);
        else end();
        return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        for (int i = 0; i < n; i++) check(b[off + i] & 0xFF);
        if (n < 0) end();
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long k = 0;
        while (k < n && read() >= 0) k++;
        return k;
    }

    private void end() {
        if (due > 0) fail(leadCol, "ends inside a multi-byte character");
    }

    private void check(int c) {
        long at = offset++;
        if (due > 0) {
            if (c < lo || c > hi) fail(leadCol, String.format(Locale.ROOT, "byte 0x%02X", lead));
            lo = 0x80;
            hi = 0xBF;
            // EF BB BF as the first bytes is a byte-order mark: editors show no character for it.
            if (at == 1 && c != 0xBB) bom = false;
            if (--due == 0 && bom && at == 2 && c == 0xBF) col = 0;
            return;
        }
        if (c == '\n') {
            line++;
            col = 0;
            return;
        }
        col++;
        if (c < 0x80) return;
        lead = c;
        leadCol = col;
        bom = at == 0 && c == 0xEF;
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
            fail(col, String.format(Locale.ROOT, "byte 0x%02X", c));
        }
    }

    private void fail(int column, String what) {
        throw new CompileException(ErrorKind.INPUT, new SourcePos(file, line, Math.max(1, column)), "not valid UTF-8 text: " + what);
    }
}
