package dev.nunac.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.nunac.testing.TestPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.nio.file.Files;
import net.jqwik.api.Example;

/**
 * The fuzz campaign over every entry point (docs/errors.md, "Fuzzing"). By default a bounded,
 * seeded campaign of {@value #DEFAULT_TRIES} inputs, stopped at {@value #DEFAULT_SECONDS} s;
 * {@code -Dfuzz.tries=N -Dfuzz.seed=S -Dfuzz.seconds=T} run a longer or different one, and
 * {@code -Dfuzz.entries=sweep,dsl} only the entry points named. Failing
 * inputs are saved under target/fuzz-failures/ and listed with their command lines.
 */
class FuzzCampaignTest {
    static final int DEFAULT_TRIES = 10_500;
    static final int DEFAULT_SECONDS = 150;
    static final long DEFAULT_SEED = 20_240_611L;

    /** Each entry point's share of the inputs, in percent, in the order of {@link EntryPoints#all}. */
    static final int[] SHARES = {26, 19, 17, 13, 20, 5};

    /** A jqwik example: jqwik's generators need its lifecycle around them. */
    @Example
    void everyEntryPointSurvivesMalformedInput() throws Exception {
        Path work = Files.createTempDirectory("nunac-fuzz");
        int tries = Integer.getInteger("fuzz.tries", DEFAULT_TRIES);
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        int seconds = Integer.getInteger("fuzz.seconds", DEFAULT_SECONDS);
        long start = System.nanoTime();
        Campaign c = new Campaign(work, TestPaths.moduleDir().resolve("target/fuzz-failures"), seed,
                start + seconds * 1_000_000_000L);
        List<String> parts = new ArrayList<>();
        int total = 0;
        try {
            List<EntryPoint> eps = EntryPoints.all();
            String only = System.getProperty("fuzz.entries", ""); // e.g. -Dfuzz.entries=sweep,dsl
            for (int i = 0; i < eps.size(); i++) {
                if (!only.isEmpty() && !List.of(only.split(",")).contains(eps.get(i).name())) continue;
                Campaign.Result r = c.run(eps.get(i), (int) ((long) tries * SHARES[i] / 100));
                parts.add(String.format(Locale.ROOT, "%s %d in %.1f s (exit 0/1/2/3: %d/%d/%d/%d)%s", r.entry(), r.inputs(),
                        r.seconds(), r.exits()[0], r.exits()[1], r.exits()[2], r.exits()[3],
                        r.failures() > 0 ? ", " + r.failures() + " FAILED" : ""));
                total += r.inputs();
            }
        } finally {
            c.close();
            Campaign.deleteTree(work);
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "fuzz campaign: seed %d, %d inputs in %.1f s: %s%n", seed, total, secs, String.join(", ", parts));
        StringBuilder sb = new StringBuilder();
        for (Campaign.Failure f : c.failures()) sb.append(f).append('\n');
        assertTrue(c.failures().isEmpty(), "fuzz failures (seed " + seed + "):\n" + sb);
    }
}
