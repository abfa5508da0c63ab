package dev.nunac.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.Repo;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every plan of the shared corpus ({@code ../shared/corpus}, read in place) imports, passes the
 * checker (standard collectives; a file that legitimately cannot would be listed in
 * {@link #KNOWN_CHECK_FAILURES} and explained in docs/corpus.md) and compiles on mi300x and
 * nuna-4die. The table in docs/corpus.md is this test's output:
 * {@code ./mvnw -q -B test -pl compiler/main -am -Dtest=CorpusConformanceTest -Dsurefire.failIfNoSpecifiedTests=false -Dcorpus.update=true}
 * rewrites it (refused under CI=true); otherwise the test fails when the file is stale.
 */
class CorpusConformanceTest {
    /** Files the checker legitimately cannot prove, with the reason shown in the table. None today. */
    static final Map<String, String> KNOWN_CHECK_FAILURES = Map.of();

    static final List<String> TOPOLOGIES = List.of("mi300x", "nuna-4die");
    /** The topology of the table's placement columns. */
    static final String TABLE_TOPOLOGY = "nuna-4die";

    /** One corpus file: its plan, the checker's verdict, and its default compile on each topology. */
    record Row(String dir, String file, Plan plan, String check, Map<String, CompileResult> compiled) {}

    static Row row(String dir, Path f) {
        Plan p = PlanLoader.load(f, Map.of(), Limits.DEFAULT);
        Diagnostics d = new Diagnostics();
        CheckPass.check(p, d);
        String check = d.hasErrors() ? "fails: " + d.all().get(0).message() : p.collective() == Collective.CUSTOM
                ? "well-formed (custom)" : "passes";
        Map<String, CompileResult> compiled = new TreeMap<>();
        if (!d.hasErrors()) for (String t : TOPOLOGIES) compiled.put(t, compile(p, t));
        return new Row(dir, f.getFileName().toString(), p, check, compiled);
    }

    /** The default compile: the placement search over every policy, NAR auto, 1 MiB. */
    static CompileResult compile(Plan p, String topology) {
        Topology topo = TopologyResolver.resolve(topology);
        return Driver.compile(p, topo, PlacementOptions.defaults(), Pipeline.verifyByDefault(), null, null);
    }

    private static final Map<String, List<Row>> ROWS = new TreeMap<>();

    /** The rows of one corpus folder, computed once per test run. */
    static synchronized List<Row> rows(String dir) {
        Path c = Repo.corpus(dir);
        return ROWS.computeIfAbsent(dir, k -> {
            List<Row> out = new ArrayList<>();
            for (Path f : Repo.files(c, dir.equals("msccl-xml") ? ".xml" : ".json")) out.add(row(dir, f));
            return out;
        });
    }

    static void assertConforms(Row r) {
        String want = KNOWN_CHECK_FAILURES.containsKey(r.file()) ? "fails" : "passes";
        assertTrue(r.check().startsWith(want), r.file() + ": " + r.check());
        if (want.equals("passes")) {
            assertEquals(TOPOLOGIES, List.copyOf(r.compiled().keySet()), r.file());
            for (CompileResult c : r.compiled().values()) {
                assertEquals(r.plan().threadblockCount(), c.placement().cuOfTb().length,
                        r.file() + " on " + c.topology().name() + ": every threadblock placed");
                assertTrue(c.search().speedup() >= 1 - 1e-9, r.file() + " on " + c.topology().name()
                        + ": the default compile is never estimated slower than UA: " + c.search().summary());
            }
        }
    }

    @Test
    void everyMscclXmlFileImportsChecksAndCompiles() {
        List<Row> rows = rows("msccl-xml");
        assertFalse(rows.isEmpty());
        for (Row r : rows) assertConforms(r);
    }

    @Test
    void everyMscclppFileImportsChecksAndCompiles() {
        List<Row> rows = rows("mscclpp-json");
        assertFalse(rows.isEmpty());
        for (Row r : rows) assertConforms(r);
    }

    @Test
    void acceptanceCommandsThroughTheCli(@TempDir Path tmp) {
        Path f = Repo.corpus("msccl-xml").resolve("allgather-allpairs-8n-ll.xml");
        assertEquals(0, CliRun.of("check", f.toString()).exit());
        for (String t : TOPOLOGIES) {
            Path out = tmp.resolve(t);
            CliRun r = CliRun.of(f.toString(), "--topo", t, "-o", out.toString());
            assertEquals(0, r.exit(), r.err());
            for (String name : List.of("placement.json", "placement.h", "report.txt")) {
                assertTrue(Files.isRegularFile(out.resolve(name)), t + ": " + name);
            }
        }
    }

    @Test
    void tableInDocsIsCurrent() throws Exception {
        String table = table();
        Path doc = Repo.root().resolve("docs/corpus.md");
        if (Boolean.getBoolean("corpus.update")) {
            if ("true".equals(System.getenv("CI"))) throw new IllegalStateException("-Dcorpus.update is refused under CI=true");
            String old = Files.readString(doc, StandardCharsets.UTF_8);
            int at = old.indexOf(MARK);
            Files.writeString(doc, old.substring(0, at + MARK.length()) + "\n" + table, StandardCharsets.UTF_8);
        }
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        assertEquals(table, text.substring(text.indexOf(MARK) + MARK.length() + 1),
                "docs/corpus.md is stale; regenerate it with -Dcorpus.update=true");
    }

    static final String MARK = "<!-- generated by CorpusConformanceTest: do not edit below -->";
    private static final List<String> DIRS = List.of("msccl-xml", "mscclpp-json");

    static String table() {
        StringBuilder sb = new StringBuilder();
        for (String dir : DIRS) {
            sb.append("\n### ").append(dir).append("\n\n");
            sb.append("| file | collective | protocol | ranks | threadblocks | steps | checker | chosen | model | est. time | vs UA |"
                    + " of ideal | CU→port hops | CU→port hops UA |\n");
            sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (Row r : rows(dir)) {
                Plan p = r.plan();
                String check = KNOWN_CHECK_FAILURES.containsKey(r.file())
                        ? "fails (" + KNOWN_CHECK_FAILURES.get(r.file()) + ")" : r.check();
                CompileResult c = r.compiled().get(TABLE_TOPOLOGY);
                var s = c == null ? null : c.search();
                sb.append("| ").append(r.file()).append(" | ").append(p.collective().id()).append(" | ")
                        .append(p.protocol().id()).append(" | ").append(p.ranks()).append(" | ")
                        .append(p.threadblockCount()).append(" | ").append(p.stepCount()).append(" | ").append(check)
                        .append(" | ").append(s == null ? "—" : s.chosen().candidate().id())
                        .append(" | ").append(s == null ? "—" : s.modelName())
                        .append(" | ").append(s == null ? "—" : String.format(Locale.ROOT, "%.2f µs", s.chosenNs() / 1000))
                        .append(" | ").append(s == null ? "—" : String.format(Locale.ROOT, "%.2f×", s.speedup()))
                        .append(" | ").append(s == null ? "—" : String.format(Locale.ROOT, "%.0f %%", 100 * s.fractionOfIdeal()))
                        .append(" | ").append(c == null ? "—" : hops(c.placement().stats().meanCuPortHops()))
                        .append(" | ").append(c == null ? "—" : hops(c.baseline().stats().meanCuPortHops()))
                        .append(" |\n");
            }
        }
        return sb.toString();
    }

    static String hops(double h) {
        return String.format(Locale.ROOT, "%.2f", h);
    }
}
