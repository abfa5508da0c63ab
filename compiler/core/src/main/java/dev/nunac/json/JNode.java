package dev.nunac.json;

import dev.nunac.diag.SourcePos;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A JSON value that remembers where it was written, so every later check (types, references,
 * merged overrides) can point at {@code file:line:col}. Jackson's own trees drop locations.
 */
public sealed interface JNode {
    SourcePos pos();

    /** Name of the JSON type, for messages. */
    String typeName();

    record JObject(SourcePos pos, Map<String, JNode> fields, Map<String, SourcePos> keyPos) implements JNode {
        public JObject {
            fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
            keyPos = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(keyPos));
        }

        public String typeName() {
            return "object";
        }
    }

    record JArray(SourcePos pos, List<JNode> items) implements JNode {
        public JArray {
            items = List.copyOf(items);
        }

        public String typeName() {
            return "array";
        }
    }

    record JString(SourcePos pos, String value) implements JNode {
        public String typeName() {
            return "string";
        }
    }

    record JNumber(SourcePos pos, BigDecimal value, boolean integral) implements JNode {
        public String typeName() {
            return integral ? "integer" : "number";
        }
    }

    record JBool(SourcePos pos, boolean value) implements JNode {
        public String typeName() {
            return "boolean";
        }
    }

    record JNull(SourcePos pos) implements JNode {
        public String typeName() {
            return "null";
        }
    }
}
