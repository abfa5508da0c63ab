package dev.nunac.driver;

import java.util.Locale;

/**
 * Byte sizes as users write them, on the command line and in sweep specs: 1048576, 100KB (10^3),
 * 1MiB (2^20), 1GB ... {@link #format} names a size no user wrote, in the units they accept.
 */
public final class ByteSizes {
    private ByteSizes() {}

    /** The largest size any option takes: 10^15 bytes (about 909 TiB), past every buffer a plan is compiled for. */
    public static final double MAX = 1e15;

    /** A size given to {@code option} (named in every message); IllegalArgumentException says what is wrong. */
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
            default -> throw new IllegalArgumentException(what + ": unknown unit '" + dev.nunac.diag.Text.shown(unit)
                    + "' (B, KB, MB, GB, KiB, MiB, GiB)");
        };
        double v;
        try {
            // ASCII digits and a decimal point only: parseDouble would also take a sign, hex and "Infinity".
            if (!num.matches("[0-9]+(\\.[0-9]+)?([eE][0-9]+)?")) throw new NumberFormatException();
            v = Double.parseDouble(num);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " is not a positive size such as 1048576, 100KB or 1MiB");
        }
        if (!(v * mult >= 0.5)) throw new IllegalArgumentException(what + " is not a positive size such as 1048576, 100KB or 1MiB");
        if (v * mult > MAX) throw new IllegalArgumentException(what + " is too large: at most 1000000000000000 bytes (1000000GB)");
        return Math.max(1, Math.round(v * mult));
    }

    public static String format(long bytes) {
        if (bytes >= 1_000_000_000L && bytes % 1_000_000_000L == 0) return bytes / 1_000_000_000L + "GB";
        if (bytes >= 1_000_000L && bytes % 1_000_000L == 0) return bytes / 1_000_000L + "MB";
        if (bytes >= 1000L && bytes % 1000L == 0) return bytes / 1000L + "KB";
        return bytes + "B";
    }
}
