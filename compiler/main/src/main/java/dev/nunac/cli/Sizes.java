package dev.nunac.cli;

import java.util.Locale;

/** Byte sizes on the command line: 1048576, 100KB (10^3), 1MiB (2^20), 1GB ... */
final class Sizes {
    private Sizes() {}

    static long parse(String text) {
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

    static String format(long bytes) {
        if (bytes >= 1_000_000_000L && bytes % 1_000_000_000L == 0) return bytes / 1_000_000_000L + "GB";
        if (bytes >= 1_000_000L && bytes % 1_000_000L == 0) return bytes / 1_000_000L + "MB";
        if (bytes >= 1000L && bytes % 1000L == 0) return bytes / 1000L + "kB";
        return bytes + "B";
    }
}
