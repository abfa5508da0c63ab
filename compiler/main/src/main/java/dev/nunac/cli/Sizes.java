package dev.nunac.cli;

import java.util.Locale;

/**
 * Byte sizes on the command line: 1048576, 100KB (10^3), 1MiB (2^20), 1GB ... {@link #format}
 * names a size no user wrote, in the units the command line accepts.
 */
public final class Sizes {
    private Sizes() {}

    /** The largest size any option takes: 10^15 bytes (about 909 TiB), past every buffer a plan is compiled for. */
    public static final double MAX = 1e15;

    /** A size given to {@code option} (named in every message). */
    public static long parse(String text, String option) {
        String s = text.trim().replace("_", "");
        String num = s.replaceAll("[A-Za-z]+$", "");
        String unit = s.substring(num.length()).toLowerCase(Locale.ROOT);
        String what = option + ": size '" + dev.nunac.diag.Text.shown(text) + "'";
        long mult = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kb" -> 1000L;
            case "kib" -> 1L << 10;
            case "m", "mb" -> 1000_000L;
            case "mib" -> 1L << 20;
            case "g", "gb" -> 1000_000_000L;
            case "gib" -> 1L << 30;
            default -> throw new UsageException(null, what + ": unknown unit '" + dev.nunac.diag.Text.shown(unit)
                    + "' (B, KB, MB, GB, KiB, MiB, GiB)");
        };
        double v;
        try {
            // ASCII digits and a decimal point only: parseDouble would also take a sign, hex and "Infinity".
            if (!num.matches("[0-9]+(\\.[0-9]+)?([eE][0-9]+)?")) throw new NumberFormatException();
            v = Double.parseDouble(num);
        } catch (NumberFormatException e) {
            throw new UsageException(null, what + " is not a positive size such as 1048576, 100KB or 1MiB");
        }
        if (!(v * mult >= 0.5)) throw new UsageException(null, what + " is not a positive size such as 1048576, 100KB or 1MiB");
        if (v * mult > MAX) throw new UsageException(null, what + " is too large: at most 1000000000000000 bytes (1000000GB)");
        return Math.max(1, Math.round(v * mult));
    }

    /**
     * A comma-separated list of sizes, in the order given, each labelled as the user wrote it
     * ({@code 100KB} stays {@code 100KB}, {@code 1MiB} stays {@code 1MiB}). Two spellings of one
     * size ({@code 1MB,1000KB}) are a usage error: the results are kept by size.
     */
    static java.util.LinkedHashMap<Long, String> parseList(String list, String option) {
        java.util.LinkedHashMap<Long, String> out = new java.util.LinkedHashMap<>();
        for (String s : list.split(",")) {
            if (s.isBlank()) continue;
            String label = s.trim();
            String before = out.putIfAbsent(parse(label, option), label);
            if (before != null) {
                throw new UsageException(null, option + ": " + before + (before.equals(label) ? " is given twice" : " and " + label
                        + " are the same size"));
            }
        }
        return out;
    }

    public static String format(long bytes) {
        if (bytes >= 1_000_000_000L && bytes % 1_000_000_000L == 0) return bytes / 1_000_000_000L + "GB";
        if (bytes >= 1_000_000L && bytes % 1_000_000L == 0) return bytes / 1_000_000L + "MB";
        if (bytes >= 1000L && bytes % 1000L == 0) return bytes / 1000L + "KB";
        return bytes + "B";
    }
}
