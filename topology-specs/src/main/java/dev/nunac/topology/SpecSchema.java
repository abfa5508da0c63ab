package dev.nunac.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.json.JNode;
import dev.nunac.json.JsonFields;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The structure of a spec, checked against the published schema ({@code schema/topology.schema.json})
 * by a JSON Schema validator: fields, types, required members, closed objects, patterns and
 * bounds. Each error is reported once, at the {@code line:col} of the offending value (an unknown
 * field at its key), in the wording of every JSON input; where a value fits none of the forms a
 * {@code oneOf} allows, the message names the forms, or the deepest part that fits none. The
 * reader ({@link SpecReader}) then keeps the checks a schema cannot say: references, uniqueness,
 * coverage, connectivity.
 */
final class SpecSchema {
    private SpecSchema() {}

    /** Compiled once per process, on first use: compiling costs about as much as reading a spec. */
    private static final class Holder {
        static final JsonNode NODE = load();
        static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(NODE);

        private static JsonNode load() {
            try (InputStream in = SpecSchema.class.getResourceAsStream(TopologyResolver.RESOURCE_DIR + "schema/topology.schema.json")) {
                return new ObjectMapper().readTree(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Reports every structural problem of {@code root} to {@code d}; true when there is none. */
    static boolean check(JNode root, Diagnostics d) {
        List<Error> errors = Holder.SCHEMA.validate(tree(root));
        if (errors.isEmpty()) return true;
        Set<String> seen = new LinkedHashSet<>();
        for (Error e : errors) {
            if (inBranch(e)) continue; // explained by the oneOf or anyOf it is a branch of
            Error shown = combinator(e) ? deepest(e, errors) : e;
            JNode at = node(root, shown.getInstanceLocation());
            String message = path(shown.getInstanceLocation()) + ": " + message(shown, at, errors);
            SourcePos pos = at.pos();
            if ("additionalProperties".equals(shown.getKeyword()) && at instanceof JNode.JObject o && o.keyPos().get(shown.getProperty()) != null) {
                pos = o.keyPos().get(shown.getProperty());
            }
            if (seen.add(pos + message)) d.error(pos, message);
        }
        return false;
    }

    private static boolean combinator(Error e) {
        return "oneOf".equals(e.getKeyword()) || "anyOf".equals(e.getKeyword());
    }

    /** Whether {@code e} comes from inside a branch of a oneOf or anyOf. */
    private static boolean inBranch(Error e) {
        String p = e.getEvaluationPath().toString();
        return p.matches(".*/(oneOf|anyOf)/\\d+/.*");
    }

    /** Of a combinator's failed branches, the combinator nested deepest in the document, or the combinator itself. */
    private static Error deepest(Error c, List<Error> all) {
        String prefix = c.getEvaluationPath().toString() + "/";
        Error best = c;
        for (Error e : all) {
            if (combinator(e) && e.getEvaluationPath().toString().startsWith(prefix)
                    && e.getInstanceLocation().getNameCount() > best.getInstanceLocation().getNameCount()) {
                best = e;
            }
        }
        return best;
    }

    private static String message(Error e, JNode at, List<Error> all) {
        Object[] args = e.getArguments();
        switch (e.getKeyword()) {
            case "required":
                return "missing required field '" + e.getProperty() + "'";
            case "additionalProperties":
                return "unknown field '" + e.getProperty() + "' (allowed: " + String.join(", ", allowed(e)) + ")";
            case "type":
                return "must be " + article(String.valueOf(args[1])) + ", found " + JsonFields.describe(at);
            case "oneOf", "anyOf": {
                Set<String> forms = new LinkedHashSet<>();
                String prefix = e.getEvaluationPath().toString() + "/";
                for (Error b : all) {
                    if (b.getEvaluationPath().toString().startsWith(prefix) && b.getInstanceLocation().equals(e.getInstanceLocation())
                            && !combinator(b)) {
                        forms.add(form(b));
                    }
                }
                return "must be " + (forms.isEmpty() ? "one of the forms the schema allows" : String.join(" or ", forms)) + ", found "
                        + JsonFields.describe(at);
            }
            default:
                return "must " + rule(e) + ", found " + JsonFields.describe(at);
        }
    }

    /** What a keyword asks of a value, in the words of the other JSON messages. */
    private static String rule(Error e) {
        Object[] args = e.getArguments();
        String v = args != null && args.length > 0 ? String.valueOf(args[0]) : "";
        return switch (e.getKeyword()) {
            case "minimum" -> "be >= " + v;
            case "exclusiveMinimum" -> "be > " + v;
            case "maximum" -> "be <= " + v;
            case "exclusiveMaximum" -> "be < " + v;
            case "enum" -> "be one of " + String.join(", ", words(e.getSchemaNode()));
            case "const" -> "be " + e.getSchemaNode();
            case "pattern" -> "match " + v;
            case "minLength" -> "1".equals(v) ? "not be empty" : "be at least " + v + " characters long";
            case "minItems" -> "hold at least " + v + (v.equals("1") ? " item" : " items");
            case "maxItems" -> "hold at most " + v + " items";
            case "minProperties" -> "hold at least " + v + (v.equals("1") ? " member" : " members");
            case "uniqueItems" -> "list each item once";
            default -> "fit the schema (" + e.getMessage() + ")";
        };
    }

    private static List<String> words(JsonNode values) {
        List<String> out = new ArrayList<>();
        if (values != null) values.forEach(x -> out.add(x.isTextual() ? x.asText() : x.toString()));
        return out;
    }

    /** What one branch asks for, in words. */
    private static String form(Error b) {
        Object[] args = b.getArguments();
        return switch (b.getKeyword()) {
            case "type" -> article(String.valueOf(args[1]));
            case "pattern" -> "a string matching " + args[0];
            case "const" -> b.getSchemaNode().toString();
            case "required" -> "an object with '" + b.getProperty() + "'";
            default -> b.getMessage();
        };
    }

    private static String article(String type) {
        return switch (type) {
            case "integer", "array", "object" -> "an " + type;
            case "boolean" -> "true or false";
            default -> "a " + type;
        };
    }

    /** The properties of the object definition whose additionalProperties refused {@code e}'s member. */
    private static List<String> allowed(Error e) {
        NodePath f = e.getSchemaLocation().getFragment();
        JsonNode def = Holder.NODE;
        for (int i = 0; i + 1 < f.getNameCount(); i++) def = def.path(String.valueOf(f.getElement(i)));
        List<String> out = new ArrayList<>();
        if (def.get("properties") != null) def.get("properties").fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** {@code $.noc.mesh.regions[1]}. */
    private static String path(NodePath p) {
        StringBuilder b = new StringBuilder("$");
        for (int i = 0; i < p.getNameCount(); i++) {
            Object el = p.getElement(i);
            if (el instanceof Integer n) b.append('[').append(n).append(']');
            else b.append('.').append(el);
        }
        return b.toString();
    }

    private static JNode node(JNode root, NodePath p) {
        JNode n = root;
        for (int i = 0; i < p.getNameCount(); i++) {
            Object el = p.getElement(i);
            JNode next = el instanceof Integer k && n instanceof JNode.JArray a && k < a.items().size() ? a.items().get(k)
                    : n instanceof JNode.JObject o ? o.fields().get(String.valueOf(el)) : null;
            if (next == null) return n;
            n = next;
        }
        return n;
    }

    /** The positioned tree as the validator's tree; numbers stay exact. */
    static JsonNode tree(JNode n) {
        JsonNodeFactory f = JsonNodeFactory.withExactBigDecimals(true);
        if (n instanceof JNode.JObject o) {
            ObjectNode out = f.objectNode();
            o.fields().forEach((k, v) -> out.set(k, tree(v)));
            return out;
        }
        if (n instanceof JNode.JArray a) {
            ArrayNode out = f.arrayNode();
            for (JNode i : a.items()) out.add(tree(i));
            return out;
        }
        if (n instanceof JNode.JString s) return f.textNode(s.value());
        if (n instanceof JNode.JNumber x) return x.integral() ? f.numberNode(x.value().toBigIntegerExact()) : f.numberNode(x.value());
        if (n instanceof JNode.JBool b) return f.booleanNode(b.value());
        return f.nullNode();
    }
}
