package dev.nunac.sweep;

import dev.nunac.json.JsonReader;
import dev.nunac.driver.ByteSizes;
import dev.nunac.compare.PolicyComparison;
import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.OutputFiles;
import dev.nunac.ir.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Merges a sweep's point files into {@code sweep.csv} (one line per point and policy) and
 * {@code sweep.md} (one row per point, the speedup over UA per policy), in the manifest's order:
 * the same point files give the same bytes however many shards wrote them. A sweep with points
 * missing is refused unless asked to merge what there is.
 */
public final class SweepMerge {
    public static final String CSV = "sweep.csv";
    public static final String MARKDOWN = "sweep.md";

    /** The tables, and how many of the manifest's points had no file. */
    public record Merged(OutputFiles files, int points, int missing) {}

    private SweepMerge() {}

    public static Merged merge(Path dir, boolean allowMissing) {
        Results r = results(dir, allowMissing);
        OutputFiles out = new OutputFiles().add(CSV, csv(r.points())).add(MARKDOWN, markdown(r.rows(), r.points(), r.missing()));
        return new Merged(out, r.points().size() + r.missing(), r.missing());
    }

    /** A sweep folder's results in the manifest's order, its rows (policies), and how many points had no file. */
    public record Results(List<PointResult> points, List<String> rows, int missing) {}

    /** Reads a sweep folder's point files, as the merge does (refused when some are missing, unless {@code allowMissing}). */
    public static Results results(Path dir, boolean allowMissing) {
        Path m = dir.resolve(Manifest.FILE);
        if (!Files.isRegularFile(m)) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(dir.toString()), "not a sweep folder: it has no " + Manifest.FILE
                    + " (nunac sweep SPEC -o DIR writes one)");
        }
        Manifest manifest = Manifest.read(m.toString(), JsonReader.bytes(m, PointResult.LIMITS));
        Path pointsDir = dir.resolve(SweepRun.POINTS);
        List<PointResult> results = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String id : manifest.points()) {
            Path f = SweepRun.file(pointsDir, id);
            if (!Files.isRegularFile(f)) {
                missing.add(id);
                continue;
            }
            PointResult r = PointResult.read(f.toString(), JsonReader.bytes(f, PointResult.LIMITS));
            if (!r.id().equals(id)) throw new CompileException(ErrorKind.INPUT, SourcePos.of(f.toString()), "holds point " + r.id() + ", not " + id);
            results.add(r);
        }
        if (!missing.isEmpty() && !allowMissing) {
            throw new CompileException(ErrorKind.INPUT, SourcePos.of(dir.toString()), missing.size() + " of " + manifest.points().size()
                    + " points have no result (first: " + missing.get(0) + "); run their shards again (a sweep resumes where it"
                    + " stopped), or merge what there is with --allow-missing");
        }
        return new Results(List.copyOf(results), manifest.rows(), missing.size());
    }

    static String csv(List<PointResult> results) {
        StringBuilder sb = new StringBuilder("id,plan,parameters,topology,gpus,threadblocks,size_bytes,policy,chosen,nar_granularity,"
                + "time_ns,ua_ns,speedup_over_ua,model\n");
        for (PointResult p : results) {
            for (PointResult.Row r : p.rows()) {
                sb.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%d,%s,%s,%d,%.3f,%.3f,%.4f,%s%n", p.id(), field(p.plan()),
                        field(parameters(p.defines(), " ")), field(p.topology()), p.gpus(), p.threadblocks(), p.sizeBytes(), r.policy(),
                        field(r.chosen()), r.granularity(), r.timeNs(), r.uaNs(), r.speedup(), r.model()));
            }
        }
        return sb.toString();
    }

    static String markdown(List<String> rows, List<PointResult> results, int missing) {
        StringBuilder sb = new StringBuilder("| plan | parameters | topology | GPUs | size | UA (us) |");
        StringBuilder rule = new StringBuilder("|---|---|---|---|---|---|");
        for (String r : rows) {
            sb.append(' ').append(r).append(" |");
            rule.append("---|");
        }
        boolean auto = rows.contains(PolicyComparison.AUTO);
        if (auto) {
            sb.append(" auto's choice |");
            rule.append("---|");
        }
        sb.append('\n').append(rule).append('\n');
        for (PointResult p : results) {
            double ua = p.rows().isEmpty() ? Double.NaN : p.rows().get(0).uaNs();
            String params = parameters(p.defines(), ", ");
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %.2f |", cell(p.plan()), params.isEmpty() ? "–" : cell(params),
                    cell(p.topology()), p.gpus(), ByteSizes.format(p.sizeBytes()), ua / 1000));
            String choice = "";
            for (String r : rows) {
                PointResult.Row row = p.rows().stream().filter(x -> x.policy().equals(r)).findFirst().orElse(null);
                sb.append(row == null ? " – |" : String.format(Locale.ROOT, " %.2fx%s |", row.speedup(), row.model().equals("simulation") ? "" : " ~"));
                if (row != null && r.equals(PolicyComparison.AUTO)) choice = row.chosen();
            }
            if (auto) sb.append(' ').append(cell(choice)).append(" |");
            sb.append('\n');
        }
        if (results.stream().anyMatch(p -> p.rows().stream().anyMatch(r -> !r.model().equals("simulation")))) {
            sb.append("\n~ analytic estimate (too large to simulate within the search's budget)\n");
        }
        if (missing > 0) sb.append("\n").append(missing).append(" points of the sweep have no result and are not in this table.\n");
        return sb.toString();
    }

    /** The parameters the spec set, {@code ranks} aside (it is the GPU count). */
    static String parameters(Map<String, String> defines, String sep) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> d : defines.entrySet()) if (!d.getKey().equals("ranks")) out.add(d.getKey() + "=" + d.getValue());
        return String.join(sep, out);
    }

    /** A CSV field, quoted when it holds a comma, quote or line break. */
    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** A markdown table cell: a bar would end it early. */
    static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
