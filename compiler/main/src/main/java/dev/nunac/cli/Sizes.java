package dev.nunac.cli;

import dev.nunac.driver.ByteSizes;

/** Byte sizes on the command line ({@link ByteSizes}), a bad one a usage error. */
public final class Sizes {
    private Sizes() {}

    /** A size given to {@code option} (named in every message). */
    public static long parse(String text, String option) {
        try {
            return ByteSizes.parse(text, option);
        } catch (IllegalArgumentException e) {
            throw new UsageException(null, e.getMessage());
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
            String before = out.putIfAbsent(parse(label, option), label);
            if (before != null) {
                throw new UsageException(null, option + ": " + before + (before.equals(label) ? " is given twice" : " and " + label
                        + " are the same size"));
            }
        }
        return out;
    }

    public static String format(long bytes) {
        return ByteSizes.format(bytes);
    }
}
