package dev.nunac.topology.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Utf8Check;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON document into {@link JNode}s with positions, using Jackson's streaming parser
 * under tight limits: a topology is a page of JSON, so anything deep or huge is an error, not a
 * reason to exhaust memory.
 */
public final class JsonTree {
    public static final int MAX_BYTES = 4 << 20;
    public static final int MAX_DEPTH = 32;
    public static final int MAX_STRING = 1 << 16;
    public static final int MAX_NUMBER = 40;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(MAX_STRING)
                    .maxNumberLength(MAX_NUMBER)
                    .maxNameLength(256)
                    .build())
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonTree() {}

    /** Parses {@code bytes} read from {@code file} (the name used in messages). */
    public static JNode parse(String file, byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file),
                    "topology spec is " + bytes.length + " bytes; the limit is " + MAX_BYTES);
        }
        Utf8Check.verify(file, bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        // A byte-order mark is accepted, as in plans: the parser would take it for a stray character.
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        try (JsonParser p = FACTORY.createParser(text)) {
            try {
                return document(file, p);
            } catch (StreamConstraintsException e) {
                JsonLocation loc = e.getLocation() != null ? e.getLocation() : p.currentLocation();
                throw new CompileException(ErrorKind.INPUT, pos(file, loc), tooBig(e));
            } catch (JsonProcessingException e) {
                // Limit violations carry no location of their own; the parser knows where it is.
                JsonLocation loc = e.getLocation() != null ? e.getLocation() : p.currentLocation();
                throw new CompileException(ErrorKind.INPUT, pos(file, loc), "malformed JSON: " + JsonErrors.describe(e.getOriginalMessage()));
            }
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "cannot read: " + e.getMessage());
        }
    }

    /** A limit of the spec format, said in its terms rather than the parser's. */
    private static String tooBig(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) return "JSON nested deeper than " + MAX_DEPTH + " levels";
        if (m.contains("String value length")) return "a JSON string longer than " + MAX_STRING + " characters";
        if (m.contains("Number value length")) return "a JSON number longer than " + MAX_NUMBER + " characters";
        if (m.contains("Name length")) return "a JSON member name longer than 256 characters";
        return "malformed JSON: " + JsonErrors.describe(m);
    }

    private static JNode document(String file, JsonParser p) throws IOException {
        {
            JsonToken t = p.nextToken();
            if (t == null) throw new CompileException(ErrorKind.INPUT, new SourcePos(file, 1, 1), "empty document: expected a JSON object");
            JNode root = read(file, p, t);
            JsonToken extra = p.nextToken();
            if (extra != null) {
                throw new CompileException(ErrorKind.INPUT, pos(file, p.currentTokenLocation()),
                        "unexpected content after the end of the JSON document");
            }
            return root;
        }
    }

    private static JNode read(String file, JsonParser p, JsonToken t) throws IOException {
        SourcePos at = pos(file, p.currentTokenLocation());
        switch (t) {
            case START_OBJECT -> {
                Map<String, JNode> fields = new LinkedHashMap<>();
                Map<String, SourcePos> keys = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    keys.put(name, pos(file, p.currentTokenLocation()));
                    fields.put(name, read(file, p, p.nextToken()));
                }
                return new JNode.JObject(at, fields, keys);
            }
            case START_ARRAY -> {
                List<JNode> items = new ArrayList<>();
                JsonToken n;
                while ((n = p.nextToken()) != JsonToken.END_ARRAY) items.add(read(file, p, n));
                return new JNode.JArray(at, items);
            }
            case VALUE_STRING -> {
                return new JNode.JString(at, p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return new JNode.JNumber(at, new java.math.BigDecimal(p.getBigIntegerValue()), true);
            }
            case VALUE_NUMBER_FLOAT -> {
                return new JNode.JNumber(at, decimal(at, p.getText()), false);
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return new JNode.JBool(at, t == JsonToken.VALUE_TRUE);
            }
            case VALUE_NULL -> {
                return new JNode.JNull(at);
            }
            default -> throw new CompileException(ErrorKind.INPUT, at, "malformed JSON: unexpected " + t);
        }
    }

    /** Largest power of ten a spec's numbers may carry either way: far past any real quantity. */
    public static final int MAX_EXPONENT = 60;

    /**
     * A number with a fraction or exponent. The exponent is bounded before anything expands the
     * number: "9e999999999" is 40 characters at most but a billion digits written out.
     */
    private static java.math.BigDecimal decimal(SourcePos at, String text) {
        java.math.BigDecimal v;
        try {
            v = new java.math.BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new CompileException(ErrorKind.INPUT, at, "number " + text + " is out of range");
        }
        int magnitude = v.precision() - v.scale();
        if (v.signum() != 0 && (magnitude > MAX_EXPONENT || magnitude < -MAX_EXPONENT)) {
            throw new CompileException(ErrorKind.INPUT, at, "number " + text + " is out of range (at most 1e" + MAX_EXPONENT
                    + " in magnitude, and not below 1e-" + MAX_EXPONENT + ")");
        }
        return v;
    }

    static SourcePos pos(String file, JsonLocation loc) {
        if (loc == null) return SourcePos.of(file);
        return new SourcePos(file, Math.max(loc.getLineNr(), 0), Math.max(loc.getColumnNr(), 0));
    }
}
