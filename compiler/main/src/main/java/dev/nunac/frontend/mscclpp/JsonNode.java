package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import java.util.List;
import java.util.Map;

/**
 * A JSON value with the position it starts at, so that content errors can name a line and
 * column (Jackson's own tree drops locations). Exactly one of the payload fields is used.
 */
record JsonNode(Kind kind, Map<String, JsonNode> fields, List<JsonNode> items, String text, SourcePos pos) {
    enum Kind { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

    JsonNode get(String name) {
        return fields == null ? null : fields.get(name);
    }

    boolean isInt() {
        return kind == Kind.NUMBER && text.matches("-?[0-9]+");
    }

    String describe() {
        return switch (kind) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "the string \"" + Text.shown(text) + "\"";
            default -> Text.shown(text);
        };
    }
}
