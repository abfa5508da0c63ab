package dev.nunac.topology;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.topology.json.JNode;
import java.util.List;
import java.util.Locale;

/**
 * A JSON object being read at a JSON path: typed getters that report missing fields, wrong
 * types and out-of-range values to the shared diagnostics and return null, so the reader
 * carries on and reports every problem in one run.
 */
final class Obj {
    final JNode.JObject node;
    final String path;
    final Diagnostics diags;

    private Obj(JNode.JObject node, String path, Diagnostics diags) {
        this.node = node;
        this.path = path;
        this.diags = diags;
    }

    /** Wraps {@code n} as an object of definition {@code def}; null (after an error) if it is not an object. */
    static Obj of(JNode n, String path, String def, Diagnostics d) {
        if (!(n instanceof JNode.JObject o)) {
            d.error(n.pos(), path + ": expected " + article(def) + " object, found " + n.typeName());
            return null;
        }
        List<String> allowed = SpecFields.of(def);
        for (var e : o.fields().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                d.error(o.keyPos().get(e.getKey()), path + ": unknown field '" + e.getKey() + "' (allowed: "
                        + String.join(", ", allowed) + ")");
            }
        }
        return new Obj(o, path, d);
    }

    private static String article(String def) {
        return "aeiou".indexOf(def.charAt(0)) >= 0 ? "an " + def : "a " + def;
    }

    String at(String field) {
        return path + "." + field;
    }

    SourcePos pos() {
        return node.pos();
    }

    boolean has(String field) {
        return node.fields().containsKey(field);
    }

    JNode raw(String field) {
        return node.fields().get(field);
    }

    void error(String field, String message) {
        JNode n = raw(field);
        diags.error(n != null ? n.pos() : node.pos(), at(field) + ": " + message);
    }

    void error(JNode n, String path, String message) {
        diags.error(n.pos(), path + ": " + message);
    }

    /** The field's value, or null after reporting it missing (when required). */
    JNode get(String field, boolean required) {
        JNode n = raw(field);
        if (n == null && required) diags.error(node.pos(), path + ": missing required field '" + field + "'");
        return n;
    }

    private void wrongType(JNode n, String path, String expected) {
        diags.error(n.pos(), path + ": expected " + expected + ", found " + describe(n));
    }

    static String describe(JNode n) {
        if (n instanceof JNode.JString s) return "string \"" + s.value() + "\"";
        if (n instanceof JNode.JNumber x) return x.typeName() + " " + x.value().toPlainString();
        return n.typeName();
    }

    String str(String field, boolean required) {
        JNode n = get(field, required);
        if (n == null) return null;
        if (n instanceof JNode.JString s) {
            if (s.value().isBlank()) {
                error(field, "must not be empty");
                return null;
            }
            return s.value();
        }
        wrongType(n, at(field), "a string");
        return null;
    }

    Integer integer(String field, boolean required, long min, long max) {
        JNode n = get(field, required);
        return n == null ? null : integer(n, at(field), min, max);
    }

    Integer integer(JNode n, String path, long min, long max) {
        if (!(n instanceof JNode.JNumber x) || !x.integral()) {
            wrongType(n, path, "an integer");
            return null;
        }
        var v = x.value();
        if (v.compareTo(java.math.BigDecimal.valueOf(min)) < 0 || v.compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
            diags.error(n.pos(), path + ": " + v.toPlainString() + " is out of range " + min + ".." + max);
            return null;
        }
        return v.intValueExact();
    }

    Double number(String field, boolean required, double min, boolean exclusiveMin) {
        JNode n = get(field, required);
        if (n == null) return null;
        if (!(n instanceof JNode.JNumber x)) {
            wrongType(n, at(field), "a number");
            return null;
        }
        double v = x.value().doubleValue();
        if (!Double.isFinite(v) || v < min || (exclusiveMin && v == min)) {
            error(field, x.value().toPlainString() + " must be " + (exclusiveMin ? "> " : ">= ") + fmt(min));
            return null;
        }
        return v;
    }

    JNode.JArray array(String field, boolean required) {
        JNode n = get(field, required);
        if (n == null) return null;
        if (n instanceof JNode.JArray a) return a;
        wrongType(n, at(field), "an array");
        return null;
    }

    Obj obj(String field, boolean required, String def) {
        JNode n = get(field, required);
        return n == null ? null : of(n, at(field), def, diags);
    }

    /** A string field restricted to {@code choices}. */
    String choice(String field, boolean required, List<String> choices) {
        String s = str(field, required);
        if (s != null && !choices.contains(s)) {
            error(field, "'" + s + "' is not one of " + String.join(", ", choices));
            return null;
        }
        return s;
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
