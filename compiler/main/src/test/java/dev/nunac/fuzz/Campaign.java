package dev.nunac.fuzz;

import dev.nunac.testing.CliRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import net.jqwik.api.RandomGenerator;

/**
 * Runs generated inputs through the CLI in-process and checks the robustness property: the exit
 * code is 0, 1, 2 or 3 (never 70), standard error holds no stack trace, nothing is printed past
 * the CLI's own streams (to the process's {@code System.out}/{@code System.err}), a failed run
 * leaves no file in its output folder, and no input takes longer than {@link #PER_INPUT_SECONDS}. Cases
 * come from jqwik generators driven by a {@link Random} seeded from the campaign seed and the
 * entry point's name, so a campaign is reproducible; it stops early at its deadline.
 */
final class Campaign {
    static final int PER_INPUT_SECONDS = 20;
    /** Failures kept in full; the count goes on. */
    static final int KEPT = 20;

    record Failure(String entry, int index, String input, List<String> args, String problem, String err) {
        @Override
        public String toString() {
            return escape(entry + " #" + index + " (" + input + "): " + problem) + "\n  args: " + escape(args.toString())
                    + "\n  stderr: " + escape(err.lines().limit(3).toList().toString());
        }

        /** Control and non-ASCII characters as \\uXXXX, so that a report prints whole. */
        static String escape(String s) {
            StringBuilder b = new StringBuilder();
            for (char c : s.toCharArray()) {
                if (c >= 0x20 && c < 0x7F) b.append(c);
                else b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            }
            return b.toString();
        }
    }

    /** {@code exits[k]}: runs that exited with k (0..3). */
    record Result(String entry, int inputs, int failures, double seconds, int[] exits) {}

    private final Path work;
    private final Path failuresDir;
    private final long seed;
    private final long deadlineNanos;
    private final List<Failure> failures = new ArrayList<>();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(null, r, "fuzz", 16L << 20); // the launcher's -Xss16m
        t.setDaemon(true);
        return t;
    });

    Campaign(Path work, Path failuresDir, long seed, long deadlineNanos) {
        this.work = work;
        this.failuresDir = failuresDir;
        this.seed = seed;
        this.deadlineNanos = deadlineNanos;
    }

    List<Failure> failures() {
        return failures;
    }

    Result run(EntryPoint e, int tries) {
        Random rnd = new Random(seed * 31 + e.name().hashCode());
        RandomGenerator<FuzzCase> gen = e.cases().generator(1000);
        Path out = work.resolve("out");
        long t0 = System.nanoTime();
        int done = 0, failed = 0;
        int[] exits = new int[4];
        for (int i = 0; i < tries && System.nanoTime() < deadlineNanos; i++) {
            FuzzCase c = gen.next(rnd).value();
            Path input = null;
            byte[] bytes = null;
            String label = c.toString();
            if (!e.seeds().isEmpty()) {
                Seed s = e.seeds().get(c.seed() % e.seeds().size());
                bytes = s.bytes();
                for (Mutation m : c.mutations()) bytes = m.apply(bytes);
                input = work.resolve("input." + s.ext());
                write(input, bytes);
                label = s.name() + " " + c.mutations();
            }
            deleteTree(out);
            List<String> args = e.args().of(c, input, out);
            String problem;
            CliRun r = null;
            try {
                r = call(args);
                problem = violation(r, out);
            } catch (TimeoutException x) {
                problem = "took more than " + PER_INPUT_SECONDS + " s";
            } catch (ExecutionException x) {
                problem = "escaped the CLI: " + x.getCause();
                r = new CliRun(-1, "", "");
            }
            done++;
            if (r != null && r.exit() >= 0 && r.exit() < 4) exits[r.exit()]++;
            if (problem != null) {
                failed++;
                if (failures.size() < KEPT) {
                    failures.add(new Failure(e.name(), i, label, args, problem, r == null ? "" : r.err()));
                    if (bytes != null) save(e.name() + "-" + i + "." + input.getFileName().toString().replaceAll(".*\\.", ""), bytes);
                }
                if (r == null) break; // a run still going: the rest would queue behind it
            }
        }
        deleteTree(out);
        return new Result(e.name(), done, failed, (System.nanoTime() - t0) / 1e9, exits);
    }

    void close() {
        runner.shutdownNow();
    }

    /** What reached the process's own streams during the current run. */
    private final java.io.ByteArrayOutputStream stray = new java.io.ByteArrayOutputStream();

    private CliRun call(List<String> args) throws TimeoutException, ExecutionException {
        Future<CliRun> f = runner.submit(() -> CliRun.of(args.toArray(String[]::new)));
        java.io.PrintStream out = System.out, err = System.err;
        java.io.PrintStream capture = new java.io.PrintStream(stray, true, java.nio.charset.StandardCharsets.UTF_8);
        stray.reset();
        System.setOut(capture);
        System.setErr(capture);
        try {
            CliRun r = f.get(PER_INPUT_SECONDS, TimeUnit.SECONDS);
            capture.flush();
            if (stray.size() == 0) return r;
            String s = stray.toString(java.nio.charset.StandardCharsets.UTF_8);
            return new CliRun(r.exit(), r.out(), r.err() + "\n[printed past the CLI's streams] " + s);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(x);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** What is wrong with a run, or null. */
    static String violation(CliRun r, Path out) {
        if (r.exit() < 0 || r.exit() > 3) return "exit code " + r.exit();
        if (r.err().contains("\tat ") || r.err().contains("internal error")) return "stack trace or internal error";
        if (r.err().contains("[printed past the CLI's streams]")) return "printed to the process's own stdout/stderr";
        if (r.exit() != 0) {
            List<String> left = files(out);
            if (!left.isEmpty()) return "failed (exit " + r.exit() + ") but left " + left;
        }
        return null;
    }

    static List<String> files(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path p, byte[] bytes) {
        try {
            Files.write(p, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void save(String name, byte[] bytes) {
        try {
            Files.createDirectories(failuresDir);
            Files.write(failuresDir.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
