package dev.nunac.frontend.mscclpp;

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
import dev.nunac.ir.Limits;
import dev.nunac.topology.json.JsonErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON document into {@link JsonNode}s with Jackson's streaming parser, under bounds:
 * document length, nesting, number and string lengths ({@link StreamReadConstraints}), value
 * count and members per object ({@link Limits}); duplicate keys are refused. Any failure to read
 * is an INPUT error at the parser's line and column.
 */
final class JsonTreeReader {
    private final String file;
    private final Limits limits;
    private long values;

    private JsonTreeReader(String file, Limits limits) {
        this.file = file;
        this.limits = limits;
    }

    static JsonNode read(String file, byte[] bytes, Limits limits) {
        StreamReadConstraints c = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxNesting())
                .maxDocumentLength(limits.maxInputBytes())
                .maxStringLength(MAX_STRING)
                .maxNumberLength(MAX_NUMBER)
                .build();
        JsonFactory f = JsonFactory.builder().streamReadConstraints(c)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        JsonTreeReader r = new JsonTreeReader(file, limits);
        JsonParser p = null;
        try {
            p = f.createParser(bytes);
            if (p.nextToken() == null) throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "empty document");
            JsonNode root = r.value(p);
            if (p.nextToken() != null) throw r.input(p.currentTokenLocation(), "unexpected content after the document");
            return root;
        } catch (StreamConstraintsException e) {
            JsonLocation at = e.getLocation() != null ? e.getLocation() : p == null ? null : p.currentLocation();
            throw r.input(at, tooBig(e, limits));
        } catch (JsonProcessingException e) {
            // The bytes are valid UTF-8 (checked before): the parser's "Invalid UTF-8" is a byte-order mark it takes only first.
            SourcePos bom = String.valueOf(e.getOriginalMessage()).startsWith("Invalid UTF-8") ? secondBom(file, bytes) : null;
            if (bom != null) {
                throw new CompileException(ErrorKind.INPUT, bom, "unexpected character U+FEFF (a byte-order mark, allowed only at the"
                        + " start of the file)");
            }
            // Constraint violations carry no location of their own: use where the parser stopped.
            JsonLocation at = e.getLocation() != null ? e.getLocation() : p == null ? null : p.currentLocation();
            throw r.input(at, "not well-formed JSON: " + JsonErrors.describe(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "cannot read: " + e.getMessage());
        } catch (StackOverflowError e) {
            // The tree is built by recursion: a thread with a small stack (an API caller's) runs out before the nesting limit.
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "JSON nested too deeply to read: the stack ran out before"
                    + " the nesting limit of " + limits.maxNesting() + " levels (lower it with --limit nesting=N)");
        } finally {
            if (p != null) {
                try {
                    p.close();
                } catch (IOException ignored) {
                    // reading from memory: nothing to release
                }
            }
        }
    }

    /** Where the first byte-order mark after the start of {@code bytes} is, or null. */
    private static SourcePos secondBom(String file, byte[] bytes) {
        int line = 1;
        int col = 1;
        for (int i = 0; i + 2 < bytes.length; i++) {
            if (i > 0 && (bytes[i] & 0xff) == 0xEF && (bytes[i + 1] & 0xff) == 0xBB && (bytes[i + 2] & 0xff) == 0xBF) {
                return new SourcePos(file, line, col);
            }
            if (bytes[i] == '\n') {
                line++;
                col = 1;
            } else if ((bytes[i] & 0xC0) != 0x80 && !(i == 0 && (bytes[0] & 0xff) == 0xEF)) {
                col++; // columns count characters, not continuation bytes, and not the leading byte-order mark
            }
        }
        return null;
    }

    /** A read constraint, said in nunac's terms with the limit that raises it where there is one. */
    private static String tooBig(StreamConstraintsException e, Limits limits) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) {
            return "JSON nested deeper than " + limits.maxNesting() + " levels (raise the limit with --limit nesting=N)";
        }
        if (m.contains("Document length")) {
            return "document longer than " + limits.maxInputBytes() + " bytes (raise the limit with --limit input-bytes=N)";
        }
        if (m.contains("String value length")) return "a JSON string longer than " + MAX_STRING + " characters";
        if (m.contains("Number value length")) return "a JSON number longer than " + MAX_NUMBER + " characters";
        return "not well-formed JSON: " + JsonErrors.describe(m);
    }

    /** Longest string and number a plan may hold: names and counts are short. */
    static final int MAX_STRING = 1 << 20;
    static final int MAX_NUMBER = 64;

    private JsonNode value(JsonParser p) throws IOException {
        SourcePos pos = pos(p.currentTokenLocation());
        if (++values > limits.maxElements()) {
            throw new CompileException(ErrorKind.INPUT, pos, "more than " + limits.maxElements()
                    + " JSON values (raise the limit with --limit elements=N)");
        }
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, JsonNode> m = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    if (m.size() >= limits.maxAttributes()) {
                        throw new CompileException(ErrorKind.INPUT, pos, "object has more than " + limits.maxAttributes()
                                + " members (raise the limit with --limit attributes=N)");
                    }
                    p.nextToken();
                    m.put(k, value(p));
                }
                return new JsonNode(JsonNode.Kind.OBJECT, m, null, null, pos);
            }
            case START_ARRAY -> {
                List<JsonNode> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) l.add(value(p));
                return new JsonNode(JsonNode.Kind.ARRAY, null, l, null, pos);
            }
            case VALUE_STRING -> { return new JsonNode(JsonNode.Kind.STRING, null, null, p.getText(), pos); }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> { return new JsonNode(JsonNode.Kind.NUMBER, null, null, p.getText(), pos); }
            case VALUE_TRUE, VALUE_FALSE -> { return new JsonNode(JsonNode.Kind.BOOLEAN, null, null, p.getText(), pos); }
            case VALUE_NULL -> { return new JsonNode(JsonNode.Kind.NULL, null, null, "null", pos); }
            default -> throw input(p.currentTokenLocation(), "unexpected token " + t);
        }
    }

    private SourcePos pos(JsonLocation l) {
        if (l == null || l.getLineNr() < 1) return SourcePos.of(file);
        return new SourcePos(file, l.getLineNr(), Math.max(1, l.getColumnNr()));
    }

    private CompileException input(JsonLocation l, String message) {
        return new CompileException(ErrorKind.INPUT, pos(l), message);
    }
}
