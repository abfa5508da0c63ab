package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.PlanSource;
import dev.nunac.frontend.mscclpp.MscclppJsonImporter;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.Plans;
import dev.nunac.testing.Repo;
import dev.nunac.testing.TestPaths;
import dev.nunac.topology.Topology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --emit placed-json}: every member of the plan, its gpus and its threadblocks is kept;
 * a gpu's threadblock at launch position b has id b; positions the grid leaves idle hold empty
 * threadblocks; replaying the dispatch rule on positions lands every threadblock on the die of
 * its placed CU; the file re-imports to the same IR up to renumbering and passes the checker.
 * Which original threadblock sits at a position is found from its content, not from the grid.
 */
class PlacedMscclppJsonTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static CompileResult compile(String file, byte[] bytes) {
        Plan p = MscclppJsonImporter.read(file, bytes, Limits.DEFAULT);
        return PlacedXmlTest.compile(p, PlacedXmlTest.TOPO).withSource(new PlanSource(file, bytes, Limits.DEFAULT));
    }

    static ObjectNode withoutId(JsonNode tb) {
        ObjectNode o = tb.deepCopy();
        o.remove("id");
        return o;
    }

    static boolean isPadding(JsonNode tb) {
        return tb.size() == 4 && tb.get("ops").isEmpty() && tb.get("channels").isEmpty() && tb.get("remote_buffer_refs").isEmpty();
    }

    static void assertPlaced(String what, byte[] original, CompileResult r, String text) throws Exception {
        JsonNode orig = JSON.readTree(original);
        JsonNode placed = JSON.readTree(text);
        // The plan's own members, and each gpu's, are kept as they were.
        ObjectNode o1 = orig.deepCopy(), p1 = placed.deepCopy();
        o1.remove("gpus");
        p1.remove("gpus");
        assertEquals(o1, p1, what + ": plan members");
        Topology topo = r.topology();
        int base = 0;
        List<int[]> origOf = new ArrayList<>();
        for (int k = 0; k < orig.get("gpus").size(); k++) {
            JsonNode og = orig.get("gpus").get(k), pg = placed.get("gpus").get(k);
            ObjectNode og1 = og.deepCopy(), pg1 = pg.deepCopy();
            og1.remove("threadblocks");
            pg1.remove("threadblocks");
            assertEquals(og1, pg1, what + ": members of gpu " + k);
            JsonNode otbs = og.get("threadblocks"), ptbs = pg.get("threadblocks");
            boolean[] used = new boolean[otbs.size()];
            int[] at = new int[ptbs.size()];
            for (int b = 0; b < ptbs.size(); b++) {
                JsonNode t = ptbs.get(b);
                assertEquals(b, t.get("id").asInt(), what + ": gpu " + k + " threadblock at position " + b + " has id b");
                at[b] = -1;
                for (int i = 0; i < otbs.size() && at[b] < 0; i++) {
                    if (!used[i] && withoutId(otbs.get(i)).equals(withoutId(t))) at[b] = i;
                }
                if (at[b] < 0) {
                    assertTrue(isPadding(t), what + ": gpu " + k + " position " + b + " is neither a threadblock of the plan nor padding");
                    continue;
                }
                used[at[b]] = true;
                int placedDie = topo.cus().get(r.placement().cuOfTb()[base + at[b]]).die();
                assertEquals(placedDie, topo.dispatch().dieOfBlock(b), what + ": gpu " + k + " block " + b + " (threadblock "
                        + at[b] + ") runs on another die than it was placed on");
            }
            for (int i = 0; i < used.length; i++) assertTrue(used[i], what + ": gpu " + k + " lost threadblock " + i);
            base += otbs.size();
            origOf.add(at);
        }
        // Read back: the same IR up to renumbering, and it passes the checker.
        Plan back = MscclppJsonImporter.read("placed.json", text.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
        Diagnostics d = new Diagnostics();
        CheckPass.check(back, d);
        assertFalse(d.hasErrors(), what + ": " + d.all());
        assertEquals(IrCompare.body(sortedDeps(r.plan())), IrCompare.body(sortedDeps(PlacedXmlTest.unplace(back, origOf))),
                what + ": same IR up to renumbering");
    }

    /** Dependencies in one order: the importer lists them in the order it meets threadblocks. */
    static Plan sortedDeps(Plan p) {
        List<RankPlan> ranks = new ArrayList<>();
        for (RankPlan rp : p.rankPlans()) {
            List<Threadblock> tbs = new ArrayList<>();
            for (Threadblock t : rp.threadblocks()) {
                List<Step> steps = new ArrayList<>();
                for (Step s : t.steps()) {
                    List<Dep> deps = new ArrayList<>(s.deps());
                    deps.sort(null);
                    steps.add(s.withDeps(deps));
                }
                tbs.add(t.withSteps(steps));
            }
            ranks.add(new RankPlan(rp.rank(), rp.buffers(), tbs));
        }
        return p.withRankPlans(ranks);
    }

    @Test
    void everyCorpusPlanKeepsItsMembersAndReplaysOntoItsXcds() throws Exception {
        List<Path> files = Repo.files(Repo.corpus("mscclpp-json"), ".json");
        assertFalse(files.isEmpty());
        for (Path f : files) {
            byte[] bytes = Files.readAllBytes(f);
            CompileResult r = compile(f.toString(), bytes);
            assertPlaced(f.getFileName().toString(), bytes, r, PlacedMscclppJson.emit(r));
        }
    }

    @Test
    void theJavaApiKeepsAnMscclppPlansBytesForThePlacedJson() throws Exception {
        Path f = Repo.corpus("mscclpp-json").resolve("alltoall_inplace_8.json");
        CompileResult r = dev.nunac.Nunac.compile(f, java.util.Map.of(), PlacedXmlTest.TOPO,
                dev.nunac.passes.place.PlacementOptions.defaults());
        assertPlaced("api", Files.readAllBytes(f), r, PlacedMscclppJson.emit(r));
    }

    @Test
    void aSmallPlanIsPaddedWhereTheGridIsIdle() throws Exception {
        byte[] bytes = Plans.ONE_SIDED_ALLGATHER.getBytes(StandardCharsets.UTF_8);
        CompileResult r = compile("p.json", bytes);
        String text = PlacedMscclppJson.emit(r);
        assertPlaced("one-sided allgather", bytes, r, text);
        assertEquals(text, PlacedMscclppJson.emit(compile("p.json", bytes)), "deterministic");
        JsonNode tbs = JSON.readTree(text).get("gpus").get(0).get("threadblocks");
        assertEquals(r.realised().ranks().get(0).grid().length, tbs.size());
    }

    @Test
    void theCommandLineWritesPlacedJson(@TempDir Path tmp) throws Exception {
        Path plan = tmp.resolve("p.json");
        Files.writeString(plan, Plans.ONE_SIDED_ALLGATHER, StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of(plan.toString(), "--topo", "mi300x", "-o", out.toString(), "--emit", "json,placed-json");
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(out.resolve("placed.json"), StandardCharsets.UTF_8);
        CompileResult r = compile(plan.toString(), Files.readAllBytes(plan));
        assertEquals(PlacedMscclppJson.emit(r), text);
    }

    @Test
    void anMscclIrPlanHasNoPlacedJson(@TempDir Path tmp) {
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of(TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", "mi300x", "-o",
                out.toString(), "--emit", "placed-json");
        run.assertRefused(2, out, "--emit placed-json: ", "is not an MSCCL++ execution plan (.json); placed-xml writes MSCCL-IR plans");
    }
}
