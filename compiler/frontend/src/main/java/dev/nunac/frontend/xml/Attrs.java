package dev.nunac.frontend.xml;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.Text;

/**
 * Typed access to one element's attributes. A missing or malformed value is reported at the
 * element's position (with the executor's wording for a missing one) and read as a sentinel, so
 * that one pass over a file reports every such error.
 */
final class Attrs {
    static final int BAD = Integer.MIN_VALUE;

    private final XmlElement e;
    private final Diagnostics d;

    Attrs(XmlElement e, Diagnostics d) {
        this.e = e;
        this.d = d;
    }

    boolean has(String name) {
        return e.attributes().containsKey(name);
    }

    /** A required attribute's text; null (and an error) when absent. */
    String string(String name) {
        String v = e.attributes().get(name);
        if (v == null) d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> is missing");
        return v;
    }

    /** A required integer; {@link #BAD} (and an error) when absent or not an integer. */
    int integer(String name) {
        String v = string(name);
        return v == null ? BAD : parse(name, v);
    }

    /** A required integer of at least {@code min}. */
    int integer(String name, int min) {
        int v = integer(name);
        if (v != BAD && v < min) {
            d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> must be at least " + min + ", found " + v);
            return BAD;
        }
        return v;
    }

    /** A required 0/1 flag; false (and an error) otherwise. */
    boolean flag(String name) {
        String v = string(name);
        if (v == null) return false;
        if (v.equals("0") || v.equals("1")) return v.equals("1");
        d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> must be 0 or 1, found '" + Text.shown(v) + "'");
        return false;
    }

    /** An optional 64-bit integer, checked and kept as text; null when absent or malformed. */
    String optionalLong(String name) {
        String v = e.attributes().get(name);
        if (v == null) return null;
        try {
            if (!Text.isAsciiInteger(v)) throw new NumberFormatException();
            Long.parseLong(v);
            return v;
        } catch (NumberFormatException x) {
            d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> must be an integer, found '" + Text.shown(v) + "'");
            return null;
        }
    }

    private int parse(String name, String v) {
        try {
            // ASCII digits only, no plus or spaces: parseInt would read other scripts' digits and a plus too
            if (!Text.isAsciiInteger(v)) throw new NumberFormatException();
            int n = Integer.parseInt(v);
            // The least int stands for "already reported" (BAD), so it cannot be a value as well.
            if (n == BAD) {
                d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> is out of range, found " + n);
                return BAD;
            }
            return n;
        } catch (NumberFormatException x) {
            d.error(e.pos(), "attribute '" + name + "' of <" + e.name() + "> must be an integer, found '" + Text.shown(v) + "'");
            return BAD;
        }
    }
}
