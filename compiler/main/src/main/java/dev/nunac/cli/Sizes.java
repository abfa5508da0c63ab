package dev.nunac.cli;

import java.util.Locale;

/**
 * Byte sizes on the command line: 1048576, 100KB (10^3), 1MiB (2^20), 1GB ... {@link #format}
 * names a size no user wrote, in the units the command line accepts.
 */
public final class Sizes {
    private Sizes() {}

    public static long parse(String text) {
        String s = text.trim().replace("_", "");
        String num = s.replaceAll("[A-Za-z]+$", "");
        String unit = s.substring(num.length()).toLowerCase(Locale.ROOT);
        long mult = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kb" -> 1000L;
            case "kib" -> 1L << 10;
            case "m", "mb" -> 1000_000L;
            case "mib" -> 1L << 20;
            case "g", "gb" -> 1000_000_000L;
            case "gib" -> 1L << 30;
            default -> throw new UsageException(null, "size '" + text + "': unknown unit '" + unit + "' (B, KB, MB, GB, KiB, MiB, GiB)");
        };
        try {
            double v = Double.parseDouble(num);
            if (!(v > 0) || v * mult > 1e15) throw new NumberFormatException();
            return Math.max(1, Math.round(v * mult));
        } catch (NumberFormatException e) {
            throw new UsageException(null, "size '" + text + "' is not a positive size such as 1048576, 100KB or 1MiB");
        }
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
            String before = out.putIfAbsent(parse(label), label);
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
