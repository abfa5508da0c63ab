package dev.nunac.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden-file assertions. Expected files live in the source tree (src/test/resources/golden);
 * {@code -Dgolden.update=true} rewrites them deliberately, and is refused when {@code CI=true}.
 * A mismatch fails with a unified diff and leaves the actual text under target/golden-actual.
 */
public final class Golden {
    private Golden() {}

    public static boolean updating() {
        return Boolean.getBoolean("golden.update");
    }

    /** @param relative path under src/test/resources/golden of this module */
    public static void assertMatches(String relative, String actual) {
        assertMatching(relative, actual, expected -> expected.equals(actual));
    }

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    /**
     * Like {@link #assertMatches}, but numbers need only agree within {@code relative} of each
     * other (the rest of the text exactly): for a cost model's estimates, whose goldens should
     * change when a change moves them, not when floating-point order does.
     */
    public static void assertMatchesWithin(String relative, String actual, double tolerance) {
        assertMatching(relative, actual, expected -> within(expected, actual, tolerance));
    }

    static boolean within(String expected, String actual, double tolerance) {
        if (!NUMBER.matcher(expected).replaceAll("#").equals(NUMBER.matcher(actual).replaceAll("#"))) return false;
        java.util.regex.Matcher a = NUMBER.matcher(expected), b = NUMBER.matcher(actual);
        while (a.find() && b.find()) {
            double x = Double.parseDouble(a.group()), y = Double.parseDouble(b.group());
            if (Math.abs(x - y) > tolerance * Math.max(Math.abs(x), Math.abs(y))) return false;
        }
        return true;
    }

    private static void assertMatching(String relative, String actual, java.util.function.Predicate<String> matches) {
        Path expectedFile = TestPaths.moduleDir().resolve("src/test/resources/golden").resolve(relative);
        try {
            if (updating()) {
                if ("true".equals(System.getenv("CI"))) {
                    fail("refusing -Dgolden.update=true when CI=true: golden files change only deliberately");
                }
                Files.createDirectories(expectedFile.getParent());
                Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
                return;
            }
            if (!Files.exists(expectedFile)) {
                fail("golden file " + relative + " is missing; create it with -Dgolden.update=true");
            }
            String expected = Files.readString(expectedFile, StandardCharsets.UTF_8);
            if (matches.test(expected)) return;
            Path actualFile = TestPaths.moduleDir().resolve("target/golden-actual").resolve(relative);
            Files.createDirectories(actualFile.getParent());
            Files.writeString(actualFile, actual, StandardCharsets.UTF_8);
            fail("output differs from golden file " + relative + " (actual written to target/golden-actual/" + relative
                    + "; rerun with -Dgolden.update=true if the change is intended)\n"
                    + UnifiedDiff.diff("expected/" + relative, "actual/" + relative, expected, actual));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
