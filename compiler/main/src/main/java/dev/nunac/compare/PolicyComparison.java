package dev.nunac.compare;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.passes.search.SearchResult;
import dev.nunac.passes.search.SimulationMemo;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A plan under several policies and sizes, each timed by the placement search restricted to that
 * policy (its best granularity), beside the default search over all of them ({@code auto}), with
 * the speedup over UA. The plan is checked, analysed and allocated once; only the search runs per
 * row and size.
 */
public final class PolicyComparison {
    /** The row name of the default search over every policy. */
    public static final String AUTO = "auto";

    /**
     * One row at one size: the candidate the search chose, its estimated time, the speedup over UA
     * (by the same model) and whether the simulator decided.
     */
    public record Cell(String row, long sizeBytes, String chosen, int granularity, double timeNs, double speedupOverUa,
                       String model) {
        /** Whether the simulator decided (whole, or over its opening stretch). */
        public boolean simulated() {
            return !"analytic".equals(model);
        }
    }

    private PolicyComparison() {}

    /** Rows: {@code auto} when {@code withAuto}, then the policies in order. */
    public static List<Cell> run(CompileResult compiled, List<Policy> policies, List<Long> sizes, int nar, boolean withAuto) {
        return run(compiled, policies, sizes, nar, withAuto, Progress.NONE, Long::toString);
    }

    /** As above, a step of {@code progress} per row and size (labelled with {@code fmt} of the size). */
    public static List<Cell> run(CompileResult compiled, List<Policy> policies, List<Long> sizes, int nar, boolean withAuto,
                                 Progress progress, java.util.function.LongFunction<String> fmt) {
        return run(compiled, policies, sizes, nar, false, withAuto, progress, fmt);
    }

    /** As above, with chunks smaller than a page repacked in every buffer when {@code repack} ({@code --layout packed}). */
    public static List<Cell> run(CompileResult compiled, List<Policy> policies, List<Long> sizes, int nar, boolean repack, boolean withAuto,
                                 Progress progress, java.util.function.LongFunction<String> fmt) {
        return run(compiled, policies, sizes, nar, repack, withAuto, progress, fmt, settings());
    }

    /** As above, the searches spending {@code settings} (those of {@link #settings} the compile was given share its timings). */
    public static List<Cell> run(CompileResult compiled, List<Policy> policies, List<Long> sizes, int nar, boolean repack, boolean withAuto,
                                 Progress progress, java.util.function.LongFunction<String> fmt, PlacementSearch.Settings settings) {
        return run(compiled, policies, sizes, nar, repack, withAuto, progress, fmt, settings, false);
    }

    /**
     * As above; with {@code simulateAll}, a row whose search let the analytic estimate decide is
     * timed by the simulator anyway (its choice and UA), as the paper reproduction times them.
     */
    public static List<Cell> run(CompileResult compiled, List<Policy> policies, List<Long> sizes, int nar, boolean repack, boolean withAuto,
                                 Progress progress, java.util.function.LongFunction<String> fmt, PlacementSearch.Settings settings,
                                 boolean simulateAll) {
        // Every size is checked before the first is searched: a sweep is not run to fail at its last size.
        for (long size : sizes) PlacementSearch.checkPages(compiled.input().withSize(size), compiled.options());
        List<Cell> out = new ArrayList<>();
        for (long size : sizes) {
            if (withAuto) {
                progress.step(AUTO + " at " + fmt.apply(size));
                PlacementOptions o = options(compiled, Policy.all(), nar, size, repack);
                // the compile searched these very options already: its result is the row
                SearchResult s = o.equals(compiled.options()) ? compiled.search() : search(compiled, o, settings);
                out.add(simulateAll ? simulatedCell(AUTO, size, s, compiled, repack, settings) : cell(AUTO, size, s));
            }
            for (Policy p : policies) {
                progress.step(p.id() + " at " + fmt.apply(size));
                SearchResult s = search(compiled, options(compiled, EnumSet.of(p), nar, size, repack), settings);
                out.add(simulateAll ? simulatedCell(p.id(), size, s, compiled, repack, settings) : cell(p.id(), size, s));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Search settings whose timings the searches of a comparison share: the searches of one size
     * time the same placements (UA in every one, each policy's best in the search over all), so
     * each is simulated once and its time reused, identical. A compile given them
     * ({@link Driver#compile(dev.nunac.ir.Plan, dev.nunac.topology.Topology, PlacementOptions, PlacementSearch.Settings,
     * boolean, String, java.util.function.BiConsumer)}) shares its timings with the comparison that follows.
     */
    public static PlacementSearch.Settings settings() {
        return PlacementSearch.Settings.defaults().withSimulator(new SimulationMemo(PlacementSearch.Settings.defaults().simulator()));
    }

    public static SearchResult search(CompileResult compiled, Set<Policy> policies, int nar, long size) {
        return Driver.searchAgain(compiled, options(compiled, policies, nar, size, false));
    }

    private static PlacementOptions options(CompileResult compiled, Set<Policy> policies, int nar, long size, boolean repack) {
        return new PlacementOptions(policies, nar, size, repack).withMaxPages(compiled.options().maxPages());
    }

    private static SearchResult search(CompileResult compiled, PlacementOptions o, PlacementSearch.Settings settings) {
        return PlacementSearch.search(compiled.input(), compiled.groups(), o, settings);
    }

    /** The row's cell, its choice and UA simulated where the search did not. */
    static Cell simulatedCell(String row, long size, SearchResult s, CompileResult compiled, boolean repack, PlacementSearch.Settings settings) {
        if (s.simulated() && !s.opened()) return cell(row, size, s); // an opening's estimates are scaled, not timed
        var in = compiled.input().withSize(size).withRepack(repack);
        double t = settings.simulator().estimate(in, s.chosen().placement()).ns();
        double ua = settings.simulator().estimate(in, s.baseline().placement()).ns();
        return new Cell(row, size, s.chosen().candidate().id(), s.chosen().placement().granularity(), t, ua / t, "simulation");
    }

    static Cell cell(String row, long size, SearchResult s) {
        return new Cell(row, size, s.chosen().candidate().id(), s.chosen().placement().granularity(), s.chosenNs(), s.speedup(),
                s.modelName());
    }

    /** Rows: policies; columns: sizes; each cell the time in µs, the speedup over UA and the granularity. */
    public static String table(List<Cell> cells, List<String> rows, List<Long> sizes, java.util.function.LongFunction<String> fmt) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-10s", "policy"));
        for (long s : sizes) sb.append(String.format(Locale.ROOT, " %25s", fmt.apply(s)));
        sb.append('\n');
        for (String row : rows) {
            sb.append(String.format(Locale.ROOT, "%-10s", row));
            for (long s : sizes) {
                for (Cell c : cells) {
                    if (c.row().equals(row) && c.sizeBytes() == s) {
                        sb.append(String.format(Locale.ROOT, " %11.3f us %5.2fx k=%-2d%s", c.timeNs() / 1000, c.speedupOverUa(), c.granularity(),
                                c.model().equals("simulation") ? " " : c.simulated() ? "≈" : "~"));
                    }
                }
            }
            sb.append('\n');
        }
        for (Cell c : cells) {
            if (c.row().equals(AUTO)) sb.append(String.format(Locale.ROOT, "auto at %s: %s%n", fmt.apply(c.sizeBytes()), c.chosen()));
        }
        if (cells.stream().anyMatch(c -> !c.simulated())) sb.append("~ analytic estimate (too large to simulate within the search's budget)\n");
        if (cells.stream().anyMatch(c -> c.simulated() && !c.model().equals("simulation"))) {
            sb.append("≈ opening simulation (too large to simulate whole: UA's analytic time scaled by the opening stretch)\n");
        }
        return sb.toString();
    }

    public static String csv(List<Cell> cells) {
        StringBuilder sb = new StringBuilder("policy,size_bytes,chosen,nar_granularity,time_ns,speedup_over_ua,model\n");
        for (Cell c : cells) {
            sb.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%.3f,%.4f,%s%n", c.row(), c.sizeBytes(), c.chosen(), c.granularity(),
                    c.timeNs(), c.speedupOverUa(), c.model()));
        }
        return sb.toString();
    }
}
