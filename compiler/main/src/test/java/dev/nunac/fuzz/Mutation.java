package dev.nunac.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One change to an input's bytes. {@code at} is a position as a fraction of the input's length,
 * so a mutation applies to inputs of any size; {@code length} and {@code value} parameterise
 * the kind (how many repetitions, which byte, which replacement).
 */
record Mutation(Kind kind, double at, int length, int value) {
    enum Kind { TRUNCATE, FLIP, DELETE_TOKEN, DUPLICATE_TOKEN, HUGE_NUMBER, NEST, BAD_UTF8, INSERT, SPLICE }

    /** Numbers past every integer type, in both signs and notations. */
    static final List<String> HUGE = List.of("99999999999999999999999999999", "-99999999999999999999999999999",
            "2147483648", "-2147483649", "9223372036854775808", "1e309", "-1e309", "1e-400", "0x7fffffffffffffff",
            "1000000000000", "4294967296", "NaN", "Infinity", "0.0000000000000000000000001", "1".repeat(200),
            "1e2147483648", "1e-2147483649", "9e999999999", "1E+99999999999999", "-0", "0e0", "1.5");

    /** Openers repeated to nest deeply, in the syntax of each format. */
    static final List<String> OPENERS = List.of("(", "[", "{", "<a>", "{\"k\":", "[[", "<gpu id=\"0\">", "{{", "(-");

    /** Fragments that are dangerous or odd in some format: DTDs, entities, comments, quotes, escapes. */
    static final List<String> FRAGMENTS = List.of(
            "<!DOCTYPE algo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>", "&xxe;",
            "<!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>", "&b;", "&amp;", "&#0;",
            "<![CDATA[x]]>", "<!-- c -->", "<?xml version=\"1.0\"?>", "\"", "'", "\\", "\\u0000", "\u0000", "/*", "*/", "//",
            "\n", "\r\n", "\t", ",", ":", ";", "=", "..", "-", "+", "null", "true", "{}", "[]", "\"\":\"\"",
            "for i in range(0, 1000000000000):", "chunk(", ")", "tb=", "\uFEFF", "\u202E", "é", "\uD83D\uDE00");

    byte[] apply(byte[] in) {
        int n = in.length;
        int pos = Math.min(n, (int) (at * (n + 1)));
        return switch (kind) {
            case TRUNCATE -> slice(in, 0, pos);
            case FLIP -> {
                if (n == 0) yield new byte[] {(byte) value};
                byte[] out = in.clone();
                out[Math.min(pos, n - 1)] = (byte) value;
                yield out;
            }
            case DELETE_TOKEN -> {
                int[] t = token(in, pos);
                yield concat(slice(in, 0, t[0]), slice(in, t[1], n));
            }
            case DUPLICATE_TOKEN -> {
                int[] t = token(in, pos);
                byte[] tok = slice(in, t[0], t[1]);
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                o.write(in, 0, t[1]);
                for (int i = 0; i < 1 + length % 4; i++) o.writeBytes(tok);
                o.write(in, t[1], n - t[1]);
                yield o.toByteArray();
            }
            case HUGE_NUMBER -> {
                int[] t = number(in, pos);
                yield concat(concat(slice(in, 0, t[0]), utf8(HUGE.get(value % HUGE.size()))), slice(in, t[1], n));
            }
            case NEST -> insert(in, pos, utf8(OPENERS.get(value % OPENERS.size()).repeat(length * 160)));
            case BAD_UTF8 -> insert(in, pos, BAD.get(value % BAD.size()));
            case INSERT -> insert(in, pos, utf8(FRAGMENTS.get(value % FRAGMENTS.size())));
            case SPLICE -> {
                int from = n == 0 ? 0 : (value * 7919) % n;
                yield insert(in, pos, slice(in, from, Math.min(n, from + length * 4)));
            }
        };
    }

    /** Byte sequences that are not UTF-8: stray continuation, overlong, surrogate, truncated lead, 0xFF. */
    static final List<byte[]> BAD = List.of(new byte[] {(byte) 0x80}, new byte[] {(byte) 0xC0, (byte) 0xAF},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xFF, (byte) 0xFE}, new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80});

    /** The token around {@code pos}: a run of letters, digits and '_' or '.', else the single byte. */
    private static int[] token(byte[] in, int pos) {
        if (in.length == 0) return new int[] {0, 0};
        int p = Math.min(pos, in.length - 1);
        if (!word(in[p])) return new int[] {p, p + 1};
        int a = p, b = p;
        while (a > 0 && word(in[a - 1])) a--;
        while (b < in.length && word(in[b])) b++;
        return new int[] {a, b};
    }

    /** The next run of digits at or after {@code pos}; an empty span at {@code pos} when there is none. */
    private static int[] number(byte[] in, int pos) {
        int a = pos;
        while (a < in.length && !(in[a] >= '0' && in[a] <= '9')) a++;
        if (a == in.length) return new int[] {pos, pos};
        int b = a;
        while (b < in.length && in[b] >= '0' && in[b] <= '9') b++;
        return new int[] {a, b};
    }

    private static boolean word(byte c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.';
    }

    private static byte[] slice(byte[] in, int from, int to) {
        return java.util.Arrays.copyOfRange(in, from, Math.max(from, to));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] insert(byte[] in, int pos, byte[] what) {
        return concat(concat(slice(in, 0, pos), what), slice(in, pos, in.length));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return kind + "@" + String.format(java.util.Locale.ROOT, "%.4f", at) + "/" + length + "/" + value;
    }
}
