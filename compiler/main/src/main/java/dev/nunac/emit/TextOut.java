package dev.nunac.emit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;

/**
 * Where an emitter writes its text: a StringBuilder, or a file. Written to a file, the text is
 * encoded as UTF-8 into a buffer that goes to the file (and to the digest the manifest lists) each
 * time it fills, so that no output of a large plan is ever held whole in memory: the whole-plan
 * JSON and header of 1,024 ranks are 660 MB of text, which were held as a builder, a String and its
 * bytes. Numbers are written as digits straight into the buffer, without a String each.
 *
 * <p>The bytes are those of {@code String.getBytes(UTF_8)} of the same text; text that has no UTF-8
 * encoding (a lone surrogate) fails the write, as {@code Files.writeString} does.
 */
public final class TextOut {
    /** Takes each full buffer (a file, and the digest). */
    interface Sink {
        void write(byte[] bytes, int length) throws IOException;
    }

    /** Big enough that a write is rarely a system call per few kB, small enough to stay in the caches. */
    static final int BUFFER = 1 << 16;

    private final StringBuilder chars; // in memory; null when writing to a sink
    private final Sink sink;
    private final byte[] buf;
    private int n;
    private long written;
    private char high; // a high surrogate whose low half is the next character (0: none)

    /** Text kept in {@code sb}. */
    public TextOut(StringBuilder sb) {
        this.chars = sb;
        this.sink = null;
        this.buf = null;
    }

    /** Text encoded as UTF-8 and handed to {@code sink} a buffer at a time; {@link #finish} hands it the rest. */
    TextOut(Sink sink) {
        this.chars = null;
        this.sink = sink;
        this.buf = new byte[BUFFER];
    }

    public TextOut append(String s) {
        if (chars != null) {
            chars.append(s);
            return this;
        }
        int len = s.length();
        for (int i = 0; i < len; ) {
            if (n == BUFFER) drain();
            int end = Math.min(len, i + (BUFFER - n));
            if (high != 0) {
                encode(s.charAt(i++));
                continue;
            }
            // the common case, ASCII: a byte a character until the buffer is full
            byte[] b = buf;
            int k = n;
            while (i < end) {
                char c = s.charAt(i);
                if (c >= 0x80) break;
                b[k++] = (byte) c;
                i++;
            }
            n = k;
            if (i < end) encode(s.charAt(i++));
        }
        return this;
    }

    public TextOut append(char c) {
        if (chars != null) {
            chars.append(c);
        } else if (c < 0x80 && high == 0) {
            if (n == BUFFER) drain();
            buf[n++] = (byte) c;
        } else {
            encode(c);
        }
        return this;
    }

    public TextOut append(char[] a, int offset, int length) {
        if (chars != null) {
            chars.append(a, offset, length);
            return this;
        }
        for (int i = offset, end = offset + length; i < end; i++) {
            char c = a[i];
            if (c < 0x80 && high == 0 && n < BUFFER) buf[n++] = (byte) c;
            else append(c);
        }
        return this;
    }

    public TextOut append(int v) {
        if (v >= 0 && v < 10 && chars == null && high == 0 && n < BUFFER) { // most values of the large tables: a CU, stack or domain of a few
            buf[n++] = (byte) ('0' + v);
            return this;
        }
        return append((long) v);
    }

    public TextOut append(long v) {
        if (chars != null) {
            chars.append(v);
            return this;
        }
        if (high != 0) throw unencodable();
        if (v == Long.MIN_VALUE) return append(Long.toString(v));
        if (n + 20 > BUFFER) drain();
        if (v < 0) {
            buf[n++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) digits++;
        int end = n + digits;
        for (int p = end - 1; p >= n; p--) {
            buf[p] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        }
        n = end;
        return this;
    }

    /** {@code s}, which the caller knows to be ASCII (a key, a separator): copied without a look at each character. */
    TextOut ascii(String s) {
        if (chars != null) {
            chars.append(s);
            return this;
        }
        int len = s.length();
        if (high != 0 || len > BUFFER) return append(s);
        if (n + len > BUFFER) drain();
        s.getBytes(0, len, buf, n); // the low byte of each character: the character, for ASCII
        n += len;
        return this;
    }

    /** {@code count} spaces: the indentation of canonical JSON. */
    TextOut spaces(int count) {
        if (chars != null || high != 0 || count > BUFFER) {
            for (int i = 0; i < count; i++) append(' ');
            return this;
        }
        if (n + count > BUFFER) drain();
        for (int i = 0; i < count; i++) buf[n + i] = ' ';
        n += count;
        return this;
    }

    /** The 8 lowercase hex digits of {@code word}, most significant first: a word of a CU mask. */
    TextOut hex8(int word) {
        if (chars != null || high != 0) {
            for (int shift = 28; shift >= 0; shift -= 4) append(HEX[(word >>> shift) & 0xf]);
            return this;
        }
        if (n + 8 > BUFFER) drain();
        for (int i = 7; i >= 0; i--) {
            buf[n + i] = HEX_BYTES[word & 0xf];
            word >>>= 4;
        }
        n += 8;
        return this;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final byte[] HEX_BYTES = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

    /** Booleans and other scalars, as StringBuilder writes them. */
    public TextOut append(Object o) {
        return append(String.valueOf(o));
    }

    /** Bytes handed to the sink so far, {@link #finish} included. */
    long written() {
        return written + n;
    }

    /** Hands the sink the rest; fails if the text ended inside a surrogate pair. */
    void finish() {
        if (chars != null) return;
        if (high != 0) throw unencodable();
        drain();
    }

    private void encode(char c) {
        if (high != 0) {
            if (!Character.isLowSurrogate(c)) throw unencodable();
            int cp = Character.toCodePoint(high, c);
            high = 0;
            room(4);
            buf[n++] = (byte) (0xf0 | (cp >> 18));
            buf[n++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
            buf[n++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
            buf[n++] = (byte) (0x80 | (cp & 0x3f));
        } else if (c < 0x80) {
            room(1);
            buf[n++] = (byte) c;
        } else if (c < 0x800) {
            room(2);
            buf[n++] = (byte) (0xc0 | (c >> 6));
            buf[n++] = (byte) (0x80 | (c & 0x3f));
        } else if (Character.isHighSurrogate(c)) {
            high = c;
        } else if (Character.isLowSurrogate(c)) {
            throw unencodable();
        } else {
            room(3);
            buf[n++] = (byte) (0xe0 | (c >> 12));
            buf[n++] = (byte) (0x80 | ((c >> 6) & 0x3f));
            buf[n++] = (byte) (0x80 | (c & 0x3f));
        }
    }

    private void room(int bytes) {
        if (n + bytes > BUFFER) drain();
    }

    private void drain() {
        if (n == 0) return;
        try {
            sink.write(buf, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        written += n;
        n = 0;
    }

    /** What {@code Files.writeString} throws for text without a UTF-8 encoding; OutputFiles says so. */
    private static UncheckedIOException unencodable() {
        return new UncheckedIOException(new MalformedInputException(1));
    }
}
