package dev.nunac.sweep;

import dev.nunac.compare.PolicyComparison;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.emit.OutputFiles;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a sweep's points into a folder, one file per point ({@code points/ID.json}), each
 * written to a temporary file and renamed into place, so a point file is there only when it is
 * complete. Points whose file is already there are skipped: a sweep that was stopped resumes,
 * and the shards of one sweep can share a folder.
 */
public final class SweepRun {
    public static final String POINTS = "points";

    /** Told before each point is computed: how many of this run's have been, of how many. */
    public interface Listener {
        void computing(int done, int total, SweepSpec.Point point);
    }

    /** How a run went: points in the sweep, in this shard, computed now, and found already done. */
    public record Outcome(int points, int inShard, int computed, int skipped) {}

    private SweepRun() {}

    public static Outcome run(SweepSpec spec, Path dir, Shard shard, Listener listener) {
        return run(spec, dir, shard, 1, listener);
    }

    /** The most points computed at once ({@code --jobs}). */
    public static final int MAX_JOBS = 256;

    /**
     * As above, {@code jobs} points at a time, each on a thread of its own. One job takes the
     * points in spec order, so one plan's compile serves its points one after another; several
     * take the largest first (ranks times size, the work's proxy), so that the last point to
     * finish is a short one and no core idles through the longest. A point's file depends only
     * on the point, never on which job computed it or when.
     */
    public static Outcome run(SweepSpec spec, Path dir, Shard shard, int jobs, Listener listener) {
        if (jobs < 1 || jobs > MAX_JOBS) throw new IllegalArgumentException("jobs " + jobs);
        folder(dir);
        manifest(spec, dir);
        Path pointsDir = dir.resolve(POINTS);
        folder(pointsDir);
        Set<String> mine = shard.of(spec.points().stream().map(SweepSpec.Point::id).toList());
        List<SweepSpec.Point> todo = new ArrayList<>();
        int skipped = 0;
        for (SweepSpec.Point p : spec.points()) {
            if (!mine.contains(p.id())) continue;
            if (Files.isRegularFile(file(pointsDir, p.id()))) skipped++;
            else todo.add(p);
        }
        int workers = Math.min(jobs, todo.size());
        if (workers > 1) todo.sort(Comparator.comparingDouble((SweepSpec.Point p) -> -(double) p.plan().plan().ranks() * p.sizeBytes()));
        Compiles compiles = new Compiles(spec, todo);
        Runnable[] work = {null};
        int[] next = {0};
        Throwable[] failed = {null};
        work[0] = () -> {
            while (true) {
                SweepSpec.Point p;
                synchronized (next) {
                    if (failed[0] != null || next[0] == todo.size()) return;
                    p = todo.get(next[0]);
                    listener.computing(next[0]++, todo.size(), p);
                }
                PointResult r = PointResult.of(p, cells(spec, compiles.take(p), p.sizeBytes()));
                new OutputFiles().add(p.id() + ".json", r.json()).writeTo(pointsDir);
            }
        };
        if (workers <= 1) {
            work[0].run();
        } else {
            // A failure stops the others taking points; each finishes the point it has (its file
            // is complete or absent), and the first failure is rethrown as it was.
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                Thread t = new Thread(null, () -> {
                    try {
                        work[0].run();
                    } catch (Throwable e) {
                        synchronized (next) {
                            if (failed[0] == null) failed[0] = e;
                        }
                    }
                }, "nunac-sweep-" + w, THREAD_STACK);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the sweep's jobs ran", e);
                }
            }
            if (failed[0] instanceof RuntimeException e) throw e;
            if (failed[0] instanceof Error e) throw e;
            if (failed[0] != null) throw new IllegalStateException(failed[0]);
        }
        return new Outcome(spec.points().size(), mine.size(), todo.size(), skipped);
    }

    /** A job's stack, as deep as the launcher gives the main thread (-Xss16m): the passes recurse over deep plans. */
    private static final long THREAD_STACK = 16L << 20;

    /**
     * Each plan and topology compiled once, when its first point is taken, and let go when its
     * last is, so that in spec order one compile is held at a time.
     */
    private static final class Compiles {
        private final SweepSpec spec;
        private final Map<String, Integer> left = new HashMap<>();
        private final Map<String, CompileResult> held = new HashMap<>();

        Compiles(SweepSpec spec, List<SweepSpec.Point> todo) {
            this.spec = spec;
            for (SweepSpec.Point p : todo) left.merge(key(p), 1, Integer::sum);
        }

        /** The plan case and topology: their labels are unique in a sweep, as its point ids are. */
        private static String key(SweepSpec.Point p) {
            return p.plan().key() + '\0' + p.topo().name();
        }

        CompileResult take(SweepSpec.Point p) {
            String k = key(p);
            CompileResult c;
            synchronized (this) {
                c = held.get(k);
                if (c == null) {
                    c = Driver.compile(p.plan().plan(), p.topo().topology(), new PlacementOptions(Policy.UA, spec.nar(), spec.compileSize())
                            .withRepack(spec.packed()), false, null, null);
                    held.put(k, c);
                }
                if (left.merge(k, -1, Integer::sum) == 0) held.remove(k);
            }
            return c;
        }
    }

    /** The point's rows in the spec's order, as {@code nunac compare} computes them. */
    static List<PolicyComparison.Cell> cells(SweepSpec spec, CompileResult compiled, long size) {
        List<Policy> policies = new ArrayList<>();
        for (String row : spec.rows()) if (!row.equals(PolicyComparison.AUTO)) policies.add(Policy.parse(row).orElseThrow());
        List<PolicyComparison.Cell> cells = PolicyComparison.run(compiled, policies, List.of(size), spec.nar(), spec.packed(),
                spec.rows().contains(PolicyComparison.AUTO), dev.nunac.compare.Progress.NONE, Long::toString, PolicyComparison.settings(),
                spec.simulated());
        List<PolicyComparison.Cell> out = new ArrayList<>();
        for (String row : spec.rows()) {
            for (PolicyComparison.Cell c : cells) if (c.row().equals(row)) out.add(c);
        }
        return out;
    }

    static Path file(Path pointsDir, String id) {
        return pointsDir.resolve(id + ".json");
    }

    /** Writes the manifest, or checks that the folder's is this sweep's. */
    private static void manifest(SweepSpec spec, Path dir) {
        String ours = Manifest.of(spec).json();
        Path m = dir.resolve(Manifest.FILE);
        if (Files.exists(m)) {
            String theirs;
            try {
                theirs = Files.readString(m, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(m.toString()), "cannot read: " + e.getMessage());
            }
            if (!theirs.equals(ours)) {
                throw new CompileException(ErrorKind.INPUT, SourcePos.of(m.toString()), "this folder holds another sweep (other points, policies,"
                        + " NAR setting or layout); give another -o DIR, or remove the folder to start again");
            }
            return;
        }
        new OutputFiles().add(Manifest.FILE, ours).writeTo(dir);
    }

    /**
     * Creates a folder whose parent exists. Shards starting together may race to create it: one
     * that another created first is no error.
     */
    static void folder(Path dir) {
        if (Files.isDirectory(dir)) return;
        String name = dir.toString();
        if (Files.exists(dir)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "sweep folder is a file");
        Path parent = dir.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the sweep folder: its parent folder does not exist");
        }
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "sweep folder is a file");
        } catch (IOException e) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(name), "cannot create the sweep folder: " + e.getMessage());
        }
    }
}
