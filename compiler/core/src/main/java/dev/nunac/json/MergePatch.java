package dev.nunac.json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * RFC 7386 JSON merge patch over positioned nodes: objects merge key by key, {@code null}
 * deletes, anything else (arrays included) replaces. Replaced values keep the patch's
 * positions, so an error in an override points into the override file.
 */
public final class MergePatch {
    private MergePatch() {}

    public static JNode apply(JNode target, JNode patch) {
        if (!(patch instanceof JNode.JObject po)) return patch;
        Map<String, JNode> out = new LinkedHashMap<>();
        Map<String, dev.nunac.diag.SourcePos> keys = new LinkedHashMap<>();
        if (target instanceof JNode.JObject to) {
            out.putAll(to.fields());
            keys.putAll(to.keyPos());
        }
        for (var e : po.fields().entrySet()) {
            String k = e.getKey();
            if (e.getValue() instanceof JNode.JNull) {
                out.remove(k);
                keys.remove(k);
            } else {
                JNode base = out.get(k);
                out.put(k, apply(base == null ? new JNode.JNull(e.getValue().pos()) : base, e.getValue()));
                keys.put(k, po.keyPos().get(k));
            }
        }
        return new JNode.JObject(target instanceof JNode.JObject ? target.pos() : po.pos(), out, keys);
    }
}
