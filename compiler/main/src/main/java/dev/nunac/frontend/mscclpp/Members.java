package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.Text;
import java.util.List;

/**
 * Typed access to a JSON object's members. A missing or mistyped member is reported at the
 * object's (or the value's) position and read as a sentinel, so one pass reports every error.
 */
final class Members {
    static final int BAD = Integer.MIN_VALUE;

    private final JsonNode o;
    private final String what;
    private final Diagnostics d;

    Members(JsonNode o, String what, Diagnostics d) {
        this.o = o;
        this.what = what;
        this.d = d;
    }

    /** Reports unless {@code n} is an object; callers skip non-objects. */
    static boolean isObject(JsonNode n, String what, Diagnostics d) {
        if (n.kind() == JsonNode.Kind.OBJECT) return true;
        d.error(n.pos(), what + " must be an object, found " + n.describe());
        return false;
    }

    JsonNode required(String name) {
        JsonNode v = o.get(name);
        if (v == null) d.error(o.pos(), what + " has no '" + name + "'");
        return v;
    }

    String string(String name) {
        JsonNode v = required(name);
        if (v == null) return null;
        if (v.kind() != JsonNode.Kind.STRING) {
            d.error(v.pos(), "'" + name + "' of " + what + " must be a string, found " + v.describe());
            return null;
        }
        return v.text();
    }

    int integer(String name, int min) {
        JsonNode v = required(name);
        return v == null ? BAD : integer(v, name, min);
    }

    int integer(JsonNode v, String name, int min) {
        if (!v.isInt()) {
            d.error(v.pos(), "'" + name + "' of " + what + " must be an integer, found " + v.describe());
            return BAD;
        }
        long x;
        try {
            x = Long.parseLong(v.text());
        } catch (NumberFormatException e) {
            x = Long.MAX_VALUE;
        }
        if (x < min || x > Integer.MAX_VALUE) {
            d.error(v.pos(), "'" + name + "' of " + what + " must be an integer from " + min + ", found " + Text.shown(v.text()));
            return BAD;
        }
        return (int) x;
    }

    Boolean bool(String name) {
        JsonNode v = required(name);
        if (v == null) return null;
        if (v.kind() != JsonNode.Kind.BOOLEAN) {
            d.error(v.pos(), "'" + name + "' of " + what + " must be true or false, found " + v.describe());
            return null;
        }
        return Boolean.parseBoolean(v.text());
    }

    /** An array member; an absent optional one is empty. */
    List<JsonNode> array(String name, boolean optional) {
        JsonNode v = o.get(name);
        if (v == null) {
            if (!optional) d.error(o.pos(), what + " has no '" + name + "'");
            return List.of();
        }
        if (v.kind() != JsonNode.Kind.ARRAY) {
            d.error(v.pos(), "'" + name + "' of " + what + " must be an array, found " + v.describe());
            return List.of();
        }
        return v.items();
    }
}
