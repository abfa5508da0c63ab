package dev.nunac.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.DeadlineRead;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Utf8Check;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads every JSON input of nunac (topology specs and their overrides, MSCCL++ plans, workloads,
 * sweep specs and results) into {@link JNode}s that remember their {@code file:line:col}, with
 * Jackson's streaming parser under {@link JsonLimits}: anything deep, long or huge is an error at
 * its position, not a reason to exhaust memory. Duplicate keys are refused. Every failure is one
 * {@code CompileException} of the caller's kind (INPUT unless told).
 */
public final class JsonReader {
    /** Largest power of ten a number may carry either way: far past any real quantity. */
    public static final int MAX_EXPONENT = 60;

    private final String file;
    private final JsonLimits limits;
    private final ErrorKind kind;
    private long values;

    private JsonReader(String file, JsonLimits limits, ErrorKind kind) {
        this.file = file;
        this.limits = limits;
        this.kind = kind;
    }

    /**
     * Reads and parses {@code path}; a file that cannot be read is an INPUT error, one too large
     * or malformed an error of {@code kind}.
     */
    public static JNode read(Path path, JsonLimits limits, ErrorKind kind) {
        return parse(path.toString(), bytes(path, limits, kind), limits, kind);
    }

    /** Parses {@code bytes} read from {@code file} (the name used in messages); errors are INPUT errors. */
    public static JNode parse(String file, byte[] bytes, JsonLimits limits) {
        return parse(file, bytes, limits, ErrorKind.INPUT);
    }

    /** Parses {@code bytes} read from {@code file}; a malformed document is an error of {@code kind}. */
    public static JNode parse(String file, byte[] bytes, JsonLimits limits, ErrorKind kind) {
        JsonReader r = new JsonReader(file, limits, kind);
        if (bytes.length > limits.maxBytes()) throw r.error(SourcePos.of(file), limits.what() + " is " + bytes.length + " bytes; the limit is "
                + limits.maxBytes() + limits.raise("input-bytes"));
        Utf8Check.verify(file, bytes);
        String text = new String(bytes, StandardCharsets.UTF_8);
        // A byte-order mark is accepted first, as in plans: the parser would take it for a stray character.
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        JsonParser p = null;
        try {
            p = factory(limits).createParser(text);
            try {
                return r.document(p);
            } catch (StreamConstraintsException e) {
                throw r.error(where(e.getLocation(), p), r.tooBig(e));
            } catch (JsonProcessingException e) {
                // Constraint violations carry no location of their own: use where the parser stopped.
                if (String.valueOf(e.getOriginalMessage()).contains("(code 65279")) {
                    throw r.error(where(e.getLocation(), p), "unexpected character U+FEFF (a byte-order mark, allowed only at the"
                            + " start of the file)");
                }
                throw r.error(where(e.getLocation(), p), "malformed JSON: " + JsonErrors.describe(e.getOriginalMessage()));
            } finally {
                p.close();
            }
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(file), "cannot read: " + e.getMessage());
        } catch (StackOverflowError e) {
            // The tree is built by recursion: a thread with a small stack (an API caller's) runs out before the nesting limit.
            throw r.error(SourcePos.of(file), "JSON nested too deeply to read: the stack ran out before the nesting limit of " + limits.maxDepth()
                    + " levels" + limits.raise("nesting"));
        }
    }

    /**
     * The file's bytes within {@code maxBytes}, counted as they are read: the size a device or
     * FIFO reports says nothing about what reading it yields, and it gets {@code maxSeconds} to
     * deliver them.
     */
    public static byte[] bytes(Path path, JsonLimits limits) {
        return bytes(path, limits, ErrorKind.INPUT);
    }

    /** As {@link #bytes(Path, JsonLimits)}, a file over the size limit an error of {@code kind}. */
    public static byte[] bytes(Path path, JsonLimits limits, ErrorKind kind) {
        String name = path.toString();
        try {
            if (Files.isDirectory(path)) throw input(name, "is a directory, not a " + limits.what());
            long size = Files.size(path);
            if (size > limits.maxBytes()) throw new CompileException(kind, SourcePos.of(name), tooLarge(limits, "is " + size + " bytes"));
            int cap = (int) Math.min(limits.maxBytes() + 1, Integer.MAX_VALUE - 16);
            byte[] bytes;
            if (Files.isRegularFile(path)) {
                try (InputStream in = Files.newInputStream(path)) {
                    bytes = in.readNBytes(cap);
                }
            } else {
                bytes = DeadlineRead.read(path, limits.maxBytes(), limits.maxSeconds(), limits.raise("input-seconds"));
            }
            if (bytes.length > limits.maxBytes()) {
                throw new CompileException(kind, SourcePos.of(name), tooLarge(limits, "is more than " + limits.maxBytes() + " bytes"));
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw input(name, "no such file");
        } catch (AccessDeniedException e) {
            throw input(name, "permission denied");
        } catch (IOException e) {
            throw input(name, "cannot read: " + e.getMessage());
        }
    }

    private static String tooLarge(JsonLimits limits, String size) {
        return limits.what() + " " + size + "; the limit is " + limits.maxBytes() + limits.raise("input-bytes");
    }

    private static CompileException input(String file, String message) {
        return new CompileException(ErrorKind.INPUT, SourcePos.of(file), message);
    }

    private static JsonFactory factory(JsonLimits limits) {
        return JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.maxDepth())
                        .maxStringLength(limits.maxString())
                        .maxNumberLength(limits.maxNumber())
                        .maxNameLength(limits.maxName())
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    private static JsonLocation where(JsonLocation reported, JsonParser p) {
        return reported != null ? reported : p.currentLocation();
    }

    /** A limit of the format, said in nunac's terms rather than the parser's, with how to raise it where the user can. */
    private String tooBig(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) return "JSON nested deeper than " + limits.maxDepth() + " levels" + limits.raise("nesting");
        if (m.contains("String value length")) return "a JSON string longer than " + limits.maxString() + " characters";
        if (m.contains("Number value length")) return "a JSON number longer than " + limits.maxNumber() + " characters";
        if (m.contains("Name length")) return "a JSON member name longer than " + limits.maxName() + " characters";
        return "malformed JSON: " + JsonErrors.describe(m);
    }

    private JNode document(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) throw error(new SourcePos(file, 1, 1), "empty document: expected a JSON object");
        JNode root = read(p, t);
        if (p.nextToken() != null) throw error(p.currentTokenLocation(), "unexpected content after the end of the JSON document");
        return root;
    }

    private JNode read(JsonParser p, JsonToken t) throws IOException {
        SourcePos at = pos(p.currentTokenLocation());
        if (++values > limits.maxValues()) throw error(at, "more than " + limits.maxValues() + " JSON values" + limits.raise("elements"));
        switch (t) {
            case START_OBJECT -> {
                Map<String, JNode> fields = new LinkedHashMap<>();
                Map<String, SourcePos> keys = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    if (fields.size() >= limits.maxMembers()) {
                        throw error(at, "object has more than " + limits.maxMembers() + " members" + limits.raise("attributes"));
                    }
                    String name = p.currentName();
                    keys.put(name, pos(p.currentTokenLocation()));
                    fields.put(name, read(p, p.nextToken()));
                }
                return new JNode.JObject(at, fields, keys);
            }
            case START_ARRAY -> {
                List<JNode> items = new ArrayList<>();
                JsonToken n;
                while ((n = p.nextToken()) != JsonToken.END_ARRAY) items.add(read(p, n));
                return new JNode.JArray(at, items);
            }
            case VALUE_STRING -> {
                return new JNode.JString(at, p.getText());
            }
            case VALUE_NUMBER_INT -> {
                return new JNode.JNumber(at, new BigDecimal(p.getBigIntegerValue()), true);
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
            default -> throw error(at, "malformed JSON: unexpected " + t);
        }
    }

    /**
     * A number with a fraction or exponent. The exponent is bounded before anything expands the
     * number: "9e999999999" is short but a billion digits written out.
     */
    private BigDecimal decimal(SourcePos at, String text) {
        BigDecimal v;
        try {
            v = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw error(at, "number " + text + " is out of range");
        }
        int magnitude = v.precision() - v.scale();
        if (v.signum() != 0 && (magnitude > MAX_EXPONENT || magnitude < -MAX_EXPONENT)) {
            throw error(at, "number " + text + " is out of range (at most 1e" + MAX_EXPONENT + " in magnitude, and not below 1e-"
                    + MAX_EXPONENT + ")");
        }
        return v;
    }

    private SourcePos pos(JsonLocation l) {
        if (l == null || l.getLineNr() < 1) return SourcePos.of(file);
        return new SourcePos(file, l.getLineNr(), Math.max(1, l.getColumnNr()));
    }

    private CompileException error(JsonLocation at, String message) {
        return error(pos(at), message);
    }

    private CompileException error(SourcePos at, String message) {
        return new CompileException(kind, at, message);
    }
}
