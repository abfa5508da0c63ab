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
import java.util.List;
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
        CompileResult compiled = null;
        SweepSpec.Point compiledFor = null;
        for (int i = 0; i < todo.size(); i++) {
            SweepSpec.Point p = todo.get(i);
            listener.computing(i, todo.size(), p);
            // points of one plan and topology come one after another: each is compiled once, then searched per size
            if (compiledFor == null || compiledFor.plan() != p.plan() || compiledFor.topo() != p.topo()) {
                compiled = Driver.compile(p.plan().plan(), p.topo().topology(), new PlacementOptions(Policy.UA, spec.nar(), spec.compileSize()).withRepack(spec.packed()), false, null, null);
                compiledFor = p;
            }
            PointResult r = PointResult.of(p, cells(spec, compiled, p.sizeBytes()));
            new OutputFiles().add(p.id() + ".json", r.json()).writeTo(pointsDir);
        }
        return new Outcome(spec.points().size(), mine.size(), todo.size(), skipped);
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
