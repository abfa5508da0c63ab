package dev.nunac.json;

import dev.nunac.diag.Text;
import java.util.regex.Pattern;

/**
 * Jackson's parse errors in terms a user can act on: the parser's advice about its own
 * features ("enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow", "Feature
 * 'ALLOW_COMMENTS' not enabled") is not for someone writing a plan, nor are its source
 * excerpts; quoted text it echoes is shown escaped and cut short ({@link Text#shown}).
 */
final class JsonErrors {
    private static final Pattern SOURCE = Pattern.compile("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]", Pattern.DOTALL);

    private JsonErrors() {}

    /** The first line of Jackson's own message ({@code getOriginalMessage}), cleaned. */
    static String describe(String jackson) {
        String m = jackson == null ? "malformed document" : jackson;
        m = SOURCE.matcher(m).replaceAll("line $1, column $2");
        int nl = m.indexOf('\n');
        if (nl >= 0) m = m.substring(0, nl);
        m = m.replace("maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)",
                "JSON has no comments");
        m = m.replace("(start marker at line", "(opened at line");
        // "...: enable `JsonReadFeature.X` to allow", "(... `StreamReadConstraints...`)": the parser's settings, not the input's fault
        int tick = m.indexOf('`');
        if (tick >= 0) {
            int cut = Math.max(m.lastIndexOf(": ", tick), m.lastIndexOf(" (", tick));
            m = (cut > 0 ? m.substring(0, cut) : m.substring(0, tick)).strip();
        }
        if (m.startsWith("Non-standard token '") && m.endsWith("'")) m = m.substring("Non-standard token ".length()) + " is not a JSON number";
        return Text.parserMessage(m);
    }
}
