package dev.nunac.diag;

import java.util.Locale;

/**
 * Text from an input as it may appear in a message or an output. Names (a plan's, an
 * attribute's) are refused at import when they hold a control character; anything else a
 * message echoes (a malformed value, an unknown word) is shown escaped and cut short, so that a
 * newline in a file cannot forge a diagnostic line and a 100,000-digit number is not printed
 * whole.
 */
public final class Text {
    /** Code points of input text a message shows before cutting it short. */
    public static final int SHOWN = 40;

    private Text() {}

    /** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: what breaks or hides a line. */
    public static boolean isControl(int cp) {
        return Character.isISOControl(cp) || cp == 0x2028 || cp == 0x2029;
    }

    /** The index of the first control character in {@code s}, or -1. */
    public static int firstControl(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (isControl(cp)) return i;
            i += Character.charCount(cp);
        }
        return -1;
    }

    /** {@code U+000A}. */
    public static String codePoint(int cp) {
        return String.format(Locale.ROOT, "U+%04X", cp);
    }

    /**
     * Reports a name or attribute value holding a control character at {@code pos}; true when it
     * is printable. {@code what} is how the message names it, e.g. "the plan name".
     */
    public static boolean checkPrintable(String value, String what, SourcePos pos, Diagnostics d) {
        int i = value == null ? -1 : firstUnprintable(value);
        if (i < 0) return true;
        int cp = value.codePointAt(i);
        // A lone surrogate (JSON's "\ud800") is no character at all: no output encoding can write it.
        d.error(pos, what + " contains " + (Character.isSurrogate((char) cp) ? "the lone surrogate " : "the control character ")
                + codePoint(cp) + " (at character " + (i + 1) + "); names must be printable text");
        return false;
    }

    /** The index of the first control character or lone surrogate in {@code s}, or -1. */
    static int firstUnprintable(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (isControl(cp) || cp <= 0xFFFF && Character.isSurrogate((char) cp)) return i;
            i += Character.charCount(cp);
        }
        return -1;
    }

    /** {@code s} escaped ({@link #escape}) and, past {@link #SHOWN} code points, cut short with its length. */
    public static String shown(String s) {
        if (s == null) return "null";
        int n = s.codePointCount(0, s.length());
        if (n <= SHOWN) return escape(s);
        return escape(s.substring(0, s.offsetByCodePoints(0, SHOWN - 3))) + "... (" + n + " characters)";
    }

    /** A quoted token: no white space inside, so two quotes of the surrounding prose never pair up. */
    private static final java.util.regex.Pattern QUOTED = java.util.regex.Pattern.compile(
            "'([^'\\s]{" + (SHOWN + 1) + ",})'|\"([^\"\\s]{" + (SHOWN + 1) + ",})\"");
    /** The longest a parser's message may be, whatever it quotes. */
    private static final int LONGEST = 300;

    /**
     * A parser's own message (ANTLR's, the XML parser's, Jackson's), which quotes what it met:
     * long quoted tokens cut short, control characters escaped, and the whole kept to a line.
     */
    public static String parserMessage(String m) {
        java.util.regex.Matcher q = QUOTED.matcher(m);
        StringBuilder b = new StringBuilder();
        while (q.find()) {
            boolean single = q.group(1) != null;
            String inner = shown(single ? q.group(1) : q.group(2));
            q.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(single ? "'" + inner + "'" : "\"" + inner + "\""));
        }
        q.appendTail(b);
        String out = escape(b.toString());
        if (out.length() <= LONGEST) return out;
        int cut = Character.isHighSurrogate(out.charAt(LONGEST - 4)) ? LONGEST - 4 : LONGEST - 3;
        return out.substring(0, cut) + "...";
    }

    /** A token (no white space) longer than this in a printed message is input echoed back, not a path or a name. */
    static final int LONGEST_TOKEN = 1000;
    private static final java.util.regex.Pattern LONG_TOKEN = java.util.regex.Pattern.compile("\\S{" + (LONGEST_TOKEN + 1) + ",}");

    /**
     * One printed line of a message, whatever text it echoes: control characters escaped, so no
     * input can forge a line or steer the terminal, and a token past {@link #LONGEST_TOKEN}
     * characters cut short with its length. The last guard where messages reach stderr.
     */
    public static String line(String m) {
        String out = escape(m);
        java.util.regex.Matcher t = LONG_TOKEN.matcher(out);
        if (!t.find()) return out;
        StringBuilder b = new StringBuilder();
        do {
            String tok = t.group();
            int keep = Character.isHighSurrogate(tok.charAt(SHOWN - 4)) ? SHOWN - 4 : SHOWN - 3;
            t.appendReplacement(b, java.util.regex.Matcher.quoteReplacement(tok.substring(0, keep) + "... (" + tok.length() + " characters)"));
        } while (t.find());
        t.appendTail(b);
        return b.toString();
    }

    /** Control characters as {@code \n}, {@code \r}, {@code \t} or {@code \u001B}; everything else as it is. */
    public static String escape(String s) {
        if (firstControl(s) < 0) return s;
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (isControl(cp)) b.append(String.format(Locale.ROOT, "\\u%04X", cp));
                    else b.appendCodePoint(cp);
                }
            }
        }
        return b.toString();
    }

    /**
     * True for an optional minus and ASCII digits only: no plus, no spaces. {@link Long#parseLong}
     * also takes a plus and other scripts' digits ("٤" is 4), which no plan format means as a number.
     */
    public static boolean isAsciiInteger(String s) {
        int i = !s.isEmpty() && s.charAt(0) == '-' ? 1 : 0;
        if (i == s.length()) return false;
        for (; i < s.length(); i++) if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        return true;
    }
}
