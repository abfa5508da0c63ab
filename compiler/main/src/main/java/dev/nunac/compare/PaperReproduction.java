package dev.nunac.compare;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.LatencyStats;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Regenerates the data of the NUNA paper's Figures 9–13 on nuna-4die and fills them into the
 * reproduction document's template ({@code {{FIG9}}} ... {{FIG13}}). Usage:
 * {@code PaperReproduction TEMPLATE OUTPUT [--full]}; without --full, Fig. 9 covers 8 GPUs only
 * and sizes up to 10 MB (Fig. 12 always runs 100 kB to 1 GB).
 */
public final class PaperReproduction {
    static final List<Policy> FIG9 = List.of(Policy.UA_NAR, Policy.NUMA_NAR, Policy.NAP_NAR);
    final Topology topo = TopologyResolver.resolve("nuna-4die");
    final Path examples;

    PaperReproduction(Path examples) {
        this.examples = examples;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: PaperReproduction TEMPLATE OUTPUT [--full]");
            System.exit(2);
        }
        boolean full = List.of(args).contains("--full");
        Path template = Path.of(args[0]);
        PaperReproduction p = new PaperReproduction(template.toAbsolutePath().getParent().getParent().resolve("examples"));
        String doc = Files.readString(template, StandardCharsets.UTF_8)
                .replace("{{MODE}}", full ? "full sweep (`--full`)" : "reduced sweep (the default; `--full` for all of it)")
                .replace("{{FIG9}}", p.fig9(full))
                .replace("{{FIG10}}", p.fig10())
                .replace("{{FIG11}}", p.fig11())
                .replace("{{FIG12}}", p.fig12())
                .replace("{{FIG13}}", p.fig13());
        Files.writeString(Path.of(args[1]), doc, StandardCharsets.UTF_8);
    }

    /** Threadblocks per peer for a pod: 1 (7 per GPU at 8 GPUs) unless asked otherwise. */
    Plan plan(String example, int ranks, int tbsPerPeer) {
        return PlanLoader.load(examples.resolve(example + ".msccl"),
                Map.of("ranks", String.valueOf(ranks), "tbs_per_peer", String.valueOf(tbsPerPeer)), Limits.DEFAULT);
    }

    SimResult sim(Plan plan, Policy p, long size, int nar) {
        CompileResult r = Driver.compile(plan, topo, new PlacementOptions(p, nar, size), false, null, null);
        return Driver.simulate(r, SimConfig.defaults());
    }

    double time(Plan plan, Policy p, long size) {
        return sim(plan, p, size, PlacementOptions.NAR_AUTO).completionNs();
    }

    static String size(long b) {
        if (b >= 1_000_000_000L) return b / 1_000_000_000L + " GB";
        if (b >= 1_000_000L) return b / 1_000_000L + " MB";
        return b / 1000L + " kB";
    }

    String fig9(boolean full) {
        int[] gpus = full ? new int[] {2, 4, 8, 16, 32, 64} : new int[] {8};
        long[] sizes = full ? new long[] {100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L}
                : new long[] {100_000L, 1_000_000L, 10_000_000L};
        StringBuilder sb = new StringBuilder("| collective | GPUs | size | UA (us) | UA+NAR | NUMA+NAR | NAP+NAR |\n|---|---|---|---|---|---|---|\n");
        for (String ex : List.of("allgather-direct", "allreduce-allpairs", "alltoall-direct")) {
            for (int g : gpus) {
                Plan plan = plan(ex, g, 1);
                for (long s : sizes) {
                    double ua = time(plan, Policy.UA, s);
                    sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2f |", ex, g, size(s), ua / 1000));
                    for (Policy p : FIG9) sb.append(String.format(Locale.ROOT, " %.2fx |", ua / time(plan, p, s)));
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    String fig10() {
        Plan plan = plan("allgather-direct", 8, 1);
        StringBuilder sb = new StringBuilder("| configuration | mean (ns) | p50 | p99 | max | paper mean | paper max |\n|---|---|---|---|---|---|---|\n");
        String[][] paper = {{"920", "1,320"}, {"780", "1,180"}};
        int i = 0;
        StringBuilder hist = new StringBuilder();
        for (Policy p : List.of(Policy.UA, Policy.NAP_NAR)) {
            SimResult s = sim(plan, p, 1_000_000L, PlacementOptions.NAR_AUTO);
            LatencyStats l = s.storeLatency();
            sb.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %s | %s |%n", p.id(), l.meanNs(), l.p50Ns(), l.p99Ns(),
                    l.maxNs(), paper[i][0], paper[i][1]));
            hist.append(String.format(Locale.ROOT, "%n%s (20 ns bins, flits):%n%n```%n%s```%n", p.id(), s.histogram().text(20, 40)));
            i++;
        }
        return sb + hist.toString();
    }

    String fig11() {
        Plan plan = plan("allgather-direct", 8, 1);
        StringBuilder sb = new StringBuilder("| policy | 100 kB | 10 MB |\n|---|---|---|\n");
        double ua1 = time(plan, Policy.UA, 100_000L), ua2 = time(plan, Policy.UA, 10_000_000L);
        for (Policy p : Policy.values()) {
            sb.append(String.format(Locale.ROOT, "| %s | %.2fx | %.2fx |%n", p.id(), ua1 / time(plan, p, 100_000L), ua2 / time(plan, p, 10_000_000L)));
        }
        return sb.toString();
    }

    String fig12() {
        Plan plan = plan("allgather-direct", 8, 1);
        long[] sizes = {100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L};
        StringBuilder sb = new StringBuilder("| size | UA (us) | NAP+NAR (us) | speedup |\n|---|---|---|---|\n");
        for (long s : sizes) {
            double ua = time(plan, Policy.UA, s), nn = time(plan, Policy.NAP_NAR, s);
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2fx |%n", size(s), ua / 1000, nn / 1000, ua / nn));
        }
        return sb.toString();
    }

    String fig13() {
        StringBuilder sb = new StringBuilder("| threadblocks per GPU | k=2 | k=4 | k=6 | k=12 |\n|---|---|---|---|---|\n");
        for (int tpp : new int[] {144, 1}) {
            Plan plan = plan("allgather-direct", 8, tpp);
            double base = sim(plan, Policy.NAP_NAR, 1_000_000L, PlacementOptions.NAR_OFF).completionNs();
            sb.append(String.format(Locale.ROOT, "| %d |", 7 * tpp));
            for (int k : new int[] {2, 4, 6, 12}) {
                sb.append(String.format(Locale.ROOT, " %.2fx |", base / sim(plan, Policy.NAP_NAR, 1_000_000L, k).completionNs()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
