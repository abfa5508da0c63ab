package dev.nunac.json;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * A JSON object being read at its JSON path ({@code $.noc.mesh}): typed getters with one wording
 * for every input, {@code FILE:LINE:COL: $.path: must be ...}. A problem goes to the
 * {@link Report} and the getter returns null, so a reader that collects ({@link #collect}) carries
 * on and reports every problem in one run; one that stops at the first ({@link #stop}) never sees
 * the null.
 */
public final class JsonFields {
    /** Where problems go. */
    @FunctionalInterface
    public interface Report {
        void error(SourcePos at, String message);
    }

    /** Problems collected in {@code d}. */
    public static Report collect(Diagnostics d) {
        return d::error;
    }

    /** The first problem thrown as an error of {@code kind}. */
    public static Report stop(ErrorKind kind) {
        return (at, message) -> {
            throw new CompileException(kind, at, message);
        };
    }

    private final JNode.JObject node;
    private final String path;
    private final Report report;

    private JsonFields(JNode.JObject node, String path, Report report) {
        this.node = node;
        this.path = path;
        this.report = report;
    }

    /** The object {@code n} at {@code path}; null after reporting it is not an object. */
    public static JsonFields of(JNode n, String path, Report report) {
        if (n instanceof JNode.JObject o) return new JsonFields(o, path, report);
        report.error(n.pos(), path + ": must be an object, found " + describe(n));
        return null;
    }

    /** The root object of a document. */
    public static JsonFields root(JNode n, Report report) {
        return of(n, "$", report);
    }

    public JNode.JObject node() {
        return node;
    }

    public String path() {
        return path;
    }

    public Report report() {
        return report;
    }

    /** The path of a member. */
    public String at(String field) {
        return path + "." + field;
    }

    public SourcePos pos() {
        return node.pos();
    }

    public boolean has(String field) {
        return node.fields().containsKey(field);
    }

    public JNode raw(String field) {
        return node.fields().get(field);
    }

    /** Reports {@code message} about a member, at its value (or at this object when it is absent). */
    public void error(String field, String message) {
        JNode n = raw(field);
        report.error(n != null ? n.pos() : node.pos(), at(field) + ": " + message);
    }

    /** Reports {@code message} about this object. */
    public void error(String message) {
        report.error(node.pos(), path + ": " + message);
    }

    /** Reports {@code message} about the value {@code n} at {@code path}. */
    public void error(JNode n, String path, String message) {
        report.error(n.pos(), path + ": " + message);
    }

    /** Reports every member not in {@code allowed}, at its key. */
    public void allowOnly(Collection<String> allowed) {
        for (String k : node.fields().keySet()) {
            if (!allowed.contains(k)) {
                report.error(node.keyPos().get(k), path + ": unknown field '" + k + "' (allowed: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }

    /** The member's value, or null (after reporting it missing, when required). */
    public JNode get(String field, boolean required) {
        JNode n = raw(field);
        if (n == null && required) report.error(node.pos(), path + ": missing required field '" + field + "'");
        return n;
    }

    /** Reports that {@code n} at {@code path} is not {@code expected}. */
    public void mustBe(JNode n, String path, String expected) {
        report.error(n.pos(), path + ": must be " + expected + ", found " + describe(n));
    }

    /** A string member, empty allowed. */
    public String string(String field, boolean required) {
        JNode n = get(field, required);
        return n == null ? null : string(n, at(field));
    }

    public String string(JNode n, String path) {
        if (n instanceof JNode.JString s) return s.value();
        mustBe(n, path, "a string");
        return null;
    }

    /** A string member that is not blank. */
    public String str(String field, boolean required) {
        String s = string(field, required);
        if (s != null && s.isBlank()) {
            error(field, "must not be empty");
            return null;
        }
        return s;
    }

    /** A string member restricted to {@code choices}. */
    public String choice(String field, boolean required, List<String> choices) {
        String s = str(field, required);
        if (s != null && !choices.contains(s)) {
            error(field, "must be one of " + String.join(", ", choices) + ", found '" + Text.shown(s) + "'");
            return null;
        }
        return s;
    }

    public Integer integer(String field, boolean required, long min, long max) {
        JNode n = get(field, required);
        return n == null ? null : integer(n, at(field), min, max);
    }

    public Integer integer(JNode n, String path, long min, long max) {
        Long v = longInt(n, path, min, Math.min(max, Integer.MAX_VALUE));
        return v == null ? null : v.intValue();
    }

    public Long longInt(String field, boolean required, long min, long max) {
        JNode n = get(field, required);
        return n == null ? null : longInt(n, path + "." + field, min, max);
    }

    /** An integer in {@code min..max}. */
    public Long longInt(JNode n, String path, long min, long max) {
        if (!(n instanceof JNode.JNumber x) || !x.integral()) {
            mustBe(n, path, "an integer");
            return null;
        }
        BigDecimal v = x.value();
        if (v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(max)) > 0) {
            report.error(n.pos(), path + ": must be an integer " + range(min, max) + ", found " + v.toPlainString());
            return null;
        }
        return v.longValueExact();
    }

    private static String range(long min, long max) {
        if (max == Integer.MAX_VALUE || max == Long.MAX_VALUE) return ">= " + min;
        return "from " + min + " to " + max;
    }

    /** A finite number {@code >= min} ({@code > min} when {@code exclusiveMin}). */
    public Double number(String field, boolean required, double min, boolean exclusiveMin) {
        JNode n = get(field, required);
        return n == null ? null : number(n, at(field), min, exclusiveMin);
    }

    public Double number(JNode n, String path, double min, boolean exclusiveMin) {
        if (!(n instanceof JNode.JNumber x)) {
            mustBe(n, path, "a number");
            return null;
        }
        double v = x.value().doubleValue();
        if (!Double.isFinite(v) || v < min || (exclusiveMin && v == min)) {
            report.error(n.pos(), path + ": must be a number " + (exclusiveMin ? "> " : ">= ") + fmt(min) + ", found "
                    + x.value().toPlainString());
            return null;
        }
        return v;
    }

    public Boolean bool(String field, boolean required) {
        JNode n = get(field, required);
        if (n == null) return null;
        if (n instanceof JNode.JBool b) return b.value();
        mustBe(n, at(field), "true or false");
        return null;
    }

    public JNode.JArray array(String field, boolean required) {
        JNode n = get(field, required);
        if (n == null) return null;
        if (n instanceof JNode.JArray a) return a;
        mustBe(n, at(field), "an array");
        return null;
    }

    /** An array member's items; empty when it is absent or not an array (after reporting that). */
    public List<JNode> items(String field, boolean required) {
        JNode.JArray a = array(field, required);
        return a == null ? List.of() : a.items();
    }

    /** What {@link #eachInt} hands on: an item of an array of integers, its path and its value. */
    @FunctionalInterface
    public interface IntItem {
        void accept(JNode node, String path, int value);
    }

    /** Each item of a required array of integers in {@code min..max}; an item that is not one is reported and skipped. */
    public void eachInt(String field, long min, long max, IntItem f) {
        List<JNode> items = items(field, true);
        for (int i = 0; i < items.size(); i++) {
            String p = at(field) + "[" + i + "]";
            Integer v = integer(items.get(i), p, min, max);
            if (v != null) f.accept(items.get(i), p, v);
        }
    }

    public JsonFields obj(String field, boolean required) {
        JNode n = get(field, required);
        return n == null ? null : of(n, at(field), report);
    }

    /** The item {@code i} of an array member, as an object. */
    public JsonFields item(String field, int i, JNode n) {
        return of(n, at(field) + "[" + i + "]", report);
    }

    /** A value for messages: {@code string "x"}, {@code integer 5}, {@code object}. */
    public static String describe(JNode n) {
        if (n instanceof JNode.JString s) return s.value().isEmpty() ? "an empty string" : "string \"" + Text.shown(s.value()) + "\"";
        if (n instanceof JNode.JNumber x) return x.typeName() + " " + Text.shown(x.value().toPlainString());
        if (n instanceof JNode.JBool b) return String.valueOf(b.value());
        return n.typeName();
    }

    public static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
