package dev.nunac.emit;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical JSON text: keys sorted, 2-space indent, arrays of scalars on one line and arrays of
 * objects one element per line, numbers in a locale-independent form, LF line ends, a trailing
 * newline. The same value always gives the same bytes, so outputs can be diffed and golden-tested.
 * Values are Map (any key order), List, String, Integer/Long, Double (NaN and infinities become
 * null), Boolean, null, and {@link Fragment}s.
 */
public final class CanonicalJson {
    private CanonicalJson() {}

    /**
     * A value that writes its own canonical text, as the maps and lists it stands for would be
     * written at {@code indent}: for the large regular parts of an output (a threadblock object
     * per threadblock), which would otherwise be built as a map per element first. Not an
     * element of a list.
     */
    @FunctionalInterface
    public interface Fragment {
        void write(TextOut out, int indent);
    }

    public static String write(Object value) {
        return write(value, 4096);
    }

    /**
     * The same, into a buffer of {@code capacity} characters at first: a large output sized in
     * advance is not copied each time its buffer would have doubled.
     */
    public static String write(Object value, int capacity) {
        StringBuilder sb = new StringBuilder(capacity);
        write(value, new TextOut(sb));
        return sb.toString();
    }

    /** The same text, written to {@code out}: a large output streamed to its file. */
    public static void write(Object value, TextOut out) {
        write(out, value, 0);
        out.append('\n');
    }

    private static void write(TextOut sb, Object v, int indent) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            Map<String, Object> sorted;
            if (m instanceof java.util.SortedMap<?, ?> sm && sm.comparator() == null && sm.firstKey() instanceof String) {
                @SuppressWarnings("unchecked")
                Map<String, Object> already = (Map<String, Object>) m; // string keys in natural order: no copy
                sorted = already;
            } else {
                sorted = new TreeMap<>();
                for (Map.Entry<?, ?> e : m.entrySet()) sorted.put(String.valueOf(e.getKey()), e.getValue());
            }
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                pad(sb, indent + 1);
                string(sb, e.getKey());
                sb.append(": ");
                write(sb, e.getValue(), indent + 1);
                sb.append(++i < sorted.size() ? ",\n" : "\n");
            }
            pad(sb, indent);
            sb.append('}');
        } else if (v instanceof List<?> l) {
            boolean scalars = l.stream().noneMatch(x -> x instanceof Map || x instanceof List);
            if (l.isEmpty()) {
                sb.append("[]");
            } else if (scalars) {
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) sb.append(", ");
                    write(sb, l.get(i), indent);
                }
                sb.append(']');
            } else {
                sb.append("[\n");
                for (int i = 0; i < l.size(); i++) {
                    pad(sb, indent + 1);
                    write(sb, l.get(i), indent + 1);
                    sb.append(i + 1 < l.size() ? ",\n" : "\n");
                }
                pad(sb, indent);
                sb.append(']');
            }
        } else if (v instanceof int[] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                if (i > 0) sb.ascii(", ");
                sb.append(a[i]);
            }
            sb.append(']');
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Fragment f) {
            f.write(sb, indent);
        } else if (v instanceof Double d) {
            sb.append(number(d));
        } else if (v instanceof Float f) {
            sb.append(number(f.doubleValue()));
        } else if (v == null) {
            sb.append("null");
        } else if (v instanceof Integer x) {
            sb.append(x.intValue());
        } else if (v instanceof Long x) {
            sb.append(x.longValue());
        } else {
            sb.append(String.valueOf(v)); // Boolean
        }
    }

    /** Up to 4 decimals, no trailing zeros, no exponent: 0.5, 12, 3.1416. */
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        String s = String.format(Locale.ROOT, "%.4f", d);
        if (s.contains(".")) s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        return s.equals("-0") ? "0" : s;
    }

    static void pad(TextOut sb, int indent) {
        sb.spaces(2 * indent);
    }

    static void string(TextOut sb, String s) {
        boolean plain = true;
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = c >= 0x20 && c != '"' && c != '\\';
        }
        if (plain) {
            sb.append('"').append(s).append('"');
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
