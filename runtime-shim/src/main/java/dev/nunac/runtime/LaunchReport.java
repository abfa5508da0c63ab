package dev.nunac.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A launch report split into its fields (backend, device, cu-affinity, page-placement, ...). */
public record LaunchReport(String text, Map<String, String> fields) {
    public static LaunchReport parse(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int c = line.indexOf(": ");
            if (c > 0) m.put(line.substring(0, c), line.substring(c + 2));
        }
        return new LaunchReport(text, Collections.unmodifiableMap(m));
    }

    public String get(String key) {
        return fields.getOrDefault(key, "");
    }
}
