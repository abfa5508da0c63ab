package dev.nunac.emit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the numbers of a generated header's static arrays back, for tests that compare headers. */
final class CHeaderArrays {
    private static final Pattern ARRAY = Pattern.compile("static const [a-z0-9_]+ (?:\\*const )?([a-z0-9_]+)\\[\\](?:\\[[A-Z0-9_]+\\])? NUNAC_UNUSED = \\{(.*?)\\};",
            Pattern.DOTALL);

    private CHeaderArrays() {}

    /** The values of array {@code name}, nested rows flattened; hex words as unsigned 32-bit values. */
    static long[] of(String header, String name) {
        Matcher m = ARRAY.matcher(header);
        while (m.find()) {
            if (!m.group(1).equals(name)) continue;
            List<Long> out = new ArrayList<>();
            for (String tok : m.group(2).split("[\\s,{}]+")) {
                if (tok.isEmpty()) continue;
                out.add(tok.startsWith("0x") ? Long.parseLong(tok.substring(2, tok.length() - 1), 16) : Long.parseLong(tok));
            }
            return out.stream().mapToLong(Long::longValue).toArray();
        }
        throw new AssertionError("no array " + name);
    }

    static int[] ints(String header, String name) {
        long[] v = of(header, name);
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (int) v[i];
        return out;
    }

    static int[] slice(int[] a, int from, int to) {
        return java.util.Arrays.copyOfRange(a, from, to);
    }
}
