package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.frontend.xml.MscclXmlImporter;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.pass.Pipeline;
import dev.nunac.passes.check.CheckPass;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.Repo;
import dev.nunac.testing.TestPaths;
import dev.nunac.topology.Dispatch;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --emit placed-xml}: the file re-imports (ids dense from 0), passes the checker, is the
 * plan's own XML up to the renumbering, and replaying the topology's dispatch rule on its ids
 * (block b runs on die {@code dies[b mod n]}) lands every threadblock on the die of the CU nunac
 * placed it on. Which original threadblock a {@code <tb>} is, is found from its content (peers,
 * channel, steps), not from the grid that wrote it, so the replay does not assume what it checks.
 */
class PlacedXmlTest {
    static final String TOPO = "mi300x";

    static CompileResult compile(Plan p, String topo) {
        return compile(p, topo, PlacementOptions.defaults());
    }

    static CompileResult compile(Plan p, String topo, PlacementOptions opts) {
        return Driver.compile(p, TopologyResolver.resolve(topo), opts, Pipeline.verifyByDefault(), null, null);
    }

    /** The options `--emit placed-xml` compiles with: only placements whose grid RCCL launches. */
    static final PlacementOptions FIT = PlacementOptions.defaults().withMaxBlocks(RcclLimits.MAX_THREADBLOCKS_PER_GPU);

    static Plan read(String xml) {
        return MscclXmlImporter.read("placed.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), Limits.DEFAULT);
    }

    /** A threadblock by what it does, without its id or the ids its dependencies name. */
    static String signature(Threadblock t) {
        StringBuilder sb = new StringBuilder().append(t.sendPeer()).append('/').append(t.recvPeer()).append('/').append(t.channel());
        for (Step s : t.steps()) {
            sb.append(';').append(s.op().mnemonic()).append(' ').append(s.src()).append(' ').append(s.dst())
                    .append(' ').append(s.deps().size()).append(s.hasDep() ? " h" : "");
        }
        return sb.toString();
    }

    /** For each rank, the original threadblock each placed id holds (-1: an empty padding block). */
    static List<int[]> originals(Plan plain, Plan back) {
        List<int[]> out = new ArrayList<>();
        for (RankPlan rp : back.rankPlans()) {
            Map<String, ArrayDeque<Integer>> bySig = new HashMap<>();
            for (Threadblock t : plain.rank(rp.rank()).threadblocks()) {
                bySig.computeIfAbsent(signature(t), k -> new ArrayDeque<>()).add(t.id());
            }
            int[] orig = new int[rp.threadblocks().size()];
            for (Threadblock t : rp.threadblocks()) {
                if (t.steps().isEmpty() && t.sendPeer() < 0 && t.recvPeer() < 0) {
                    ArrayDeque<Integer> q = bySig.get(signature(t));
                    // An empty threadblock of the plan itself is indistinguishable from padding; either may stand in.
                    orig[t.id()] = q != null && !q.isEmpty() ? q.poll() : -1;
                    continue;
                }
                ArrayDeque<Integer> q = bySig.get(signature(t));
                assertTrue(q != null && !q.isEmpty(), "rank " + rp.rank() + " tb " + t.id() + " matches no threadblock of the plan");
                orig[t.id()] = q.poll();
            }
            for (var q : bySig.values()) assertTrue(q.isEmpty(), "rank " + rp.rank() + ": a threadblock of the plan is missing");
            out.add(orig);
        }
        return out;
    }

    /** The placed plan read back, padding dropped and ids returned to the plan's own. */
    static Plan unplace(Plan back, List<int[]> orig) {
        List<RankPlan> ranks = new ArrayList<>();
        for (RankPlan rp : back.rankPlans()) {
            int[] o = orig.get(rp.rank());
            int n = 0;
            for (int x : o) if (x >= 0) n++;
            Threadblock[] tbs = new Threadblock[n];
            for (Threadblock t : rp.threadblocks()) {
                if (o[t.id()] < 0) continue;
                List<Step> steps = new ArrayList<>();
                for (Step s : t.steps()) {
                    List<Dep> deps = new ArrayList<>();
                    for (Dep d : s.deps()) deps.add(new Dep(o[d.tb()], d.step()));
                    steps.add(s.withDeps(deps));
                }
                tbs[o[t.id()]] = t.withId(o[t.id()]).withSteps(steps);
            }
            ranks.add(new RankPlan(rp.rank(), rp.buffers(), List.of(tbs)));
        }
        return back.withRankPlans(ranks);
    }

    /** Every claim of the class for one compiled plan whose placed XML RCCL would load. */
    static void assertPlaced(String what, CompileResult r, String xml) {
        Topology topo = r.topology();
        Plan back = read(xml);
        Diagnostics d = new Diagnostics();
        CheckPass.check(back, d);
        assertFalse(d.hasErrors(), what + ": the placed XML fails the checker: " + d.all());
        Plan plain = read(MscclXmlExporter.export(r.plan()));
        List<int[]> orig = originals(plain, back);
        assertEquals(IrCompare.body(plain), IrCompare.body(unplace(back, orig)), what + ": same IR up to renumbering");
        Dispatch rule = topo.dispatch();
        int base = 0;
        int padded = 0;
        for (RankPlan rp : r.plan().rankPlans()) {
            int[] o = orig.get(rp.rank());
            assertTrue(o.length <= RcclLimits.MAX_THREADBLOCKS_PER_GPU, what + ": within RCCL's threadblock limit");
            for (int b = 0; b < o.length; b++) {
                if (o[b] < 0) {
                    padded++;
                    continue;
                }
                int placedDie = topo.cus().get(r.placement().cuOfTb()[base + o[b]]).die();
                assertEquals(placedDie, rule.dieOfBlock(b), what + ": rank " + rp.rank() + " block " + b + " (threadblock "
                        + o[b] + ") runs on another die than it was placed on");
            }
            base += rp.threadblocks().size();
        }
        assertTrue(padded >= 0);
    }

    static List<Path> examples() {
        return Repo.files(TestPaths.examples(), ".msccl");
    }

    @Test
    void everyExampleOnMi300xReimportsChecksAndReplaysOntoItsXcds() {
        assertEquals(6, examples().size(), "the examples folder changed: update this test's expectations");
        for (Path ex : examples()) {
            Plan p = PlanLoader.load(ex, Map.of(), Limits.DEFAULT);
            CompileResult r = compile(p, TOPO);
            assertPlaced(ex.getFileName().toString(), r, PlacedXml.emit(r));
        }
    }

    @Test
    void everyCorpusPlanFitsOncePlacedForRcclAndReplaysOntoItsXcds() {
        int fits = 0;
        List<String> refused = new ArrayList<>();
        for (Path f : Repo.files(Repo.corpus("msccl-xml"), ".xml")) {
            Plan p = PlanLoader.load(f, Map.of(), Limits.DEFAULT);
            CompileResult r = compile(p, TOPO, FIT);
            String xml;
            try {
                xml = PlacedXml.emit(r);
            } catch (CompileException e) {
                // Only a plan that RCCL would refuse in its own order may be refused placed.
                assertTrue(e.getMessage().contains("so RCCL would not load it"), f + ": " + e.getMessage());
                org.junit.jupiter.api.Assertions.assertThrows(CompileException.class, () -> RcclLimits.check(p, "placed-xml"),
                        f + " fits RCCL in its own order, so some placement of it does: " + e.getMessage());
                refused.add(f.getFileName().toString());
                continue;
            }
            assertPlaced(f.getFileName().toString(), r, xml);
            fits++;
        }
        assertEquals(List.of(), refused, "every corpus plan fits RCCL in its own order");
        assertTrue(fits >= 20, fits + " corpus plans placed");
    }

    @Test
    void withoutTheBoundAConcentratedPlacementIsRefusedForRcclsLimit() {
        // 24 threadblocks per rank that the unbounded search puts on few XCDs: block b → XCD b mod 8 needs over 64 slots.
        Plan p = PlanLoader.load(Repo.corpus("msccl-xml").resolve("allreduce_a100_ring_ch24_manul_scratch.xml"), Map.of(), Limits.DEFAULT);
        CompileResult wide = compile(p, TOPO);
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.nunac.passes.realise.Realisation.widestGrid(p, wide.placement(),
                wide.topology()) > RcclLimits.MAX_THREADBLOCKS_PER_GPU, "the unbounded choice fits RCCL now");
        CompileException e = org.junit.jupiter.api.Assertions.assertThrows(CompileException.class, () -> PlacedXml.emit(wide));
        assertTrue(e.getMessage().contains("placed-xml: rank 0 needs "), e.getMessage());
        assertTrue(e.getMessage().contains("RCCL launches at most 64 per GPU (MSCCL_MAX_NUM_THREAD_BLOCKS)"), e.getMessage());
        // Bounded, the search chooses a placement whose grid fits, and says why others were not chosen.
        CompileResult fit = compile(p, TOPO, FIT);
        assertTrue(dev.nunac.passes.realise.Realisation.widestGrid(p, fit.placement(), fit.topology()) <= 64);
        assertTrue(fit.search().reason().contains("not chosen: their launch grid would exceed 64 blocks on a rank")
                || fit.search().reason().contains("not chosen: its launch grid would exceed 64 blocks on a rank"), fit.search().reason());
        assertPlaced("bounded", fit, PlacedXml.emit(fit));
    }

    @Test
    void padsIdleSlotsWithEmptyThreadblocksAndRenumbersDependencies() {
        Plan p = PlanLoader.load(TestPaths.examples().resolve("allreduce-ring.msccl"), Map.of("ranks", "4"), Limits.DEFAULT);
        CompileResult r = compile(p, TOPO);
        String xml = PlacedXml.emit(r);
        Plan back = read(xml);
        int[] grid = r.realised().ranks().get(0).grid();
        assertEquals(grid.length, back.rank(0).threadblocks().size());
        for (int b = 0; b < grid.length; b++) {
            Threadblock t = back.rank(0).tb(b);
            if (grid[b] < 0) {
                assertTrue(t.steps().isEmpty() && t.sendPeer() == -1 && t.recvPeer() == -1, "slot " + b + " is padding");
            }
        }
        assertTrue(xml.contains("send=\"-1\" recv=\"-1\""));
        assertPlaced("allreduce-ring ranks=4", r, xml);
    }

    @Test
    void theSameCompileWritesTheSameBytes() {
        Plan p = PlanLoader.load(TestPaths.examples().resolve("alltoall-direct.msccl"), Map.of(), Limits.DEFAULT);
        assertEquals(PlacedXml.emit(compile(p, TOPO)), PlacedXml.emit(compile(p, TOPO)));
    }

    @Test
    void aPlanOverRcclsLimitInAnyOrderIsRefusedAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        // 8 ranks, 9 instances: 72 threadblocks on every rank, more than RCCL launches whatever the order.
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "-D", "inst=9", "--topo", TOPO,
                "-o", out.toString(), "--emit", "json,placed-xml");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("error: placed-xml: rank 0 needs 72 threadblocks; RCCL launches at most 64 per GPU"
                + " (MSCCL_MAX_NUM_THREAD_BLOCKS), so RCCL would not load it"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertEquals(1, run.err().lines().filter(l -> l.contains("error:")).count(), run.err());
        assertFalse(Files.exists(out), "no output folder or file on failure");
    }

    @Test
    void theCommandLineChoosesAPlacementRcclLaunches(@TempDir Path tmp) throws Exception {
        Path f = Repo.corpus("msccl-xml").resolve("allreduce_a100_ring_ch24_manul_scratch.xml");
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of(f.toString(), "--topo", TOPO, "-o", out.toString(), "--emit", "report,placed-xml");
        assertEquals(0, run.exit(), run.err());
        Plan back = PlanLoader.load(out.resolve("placed.xml"), Map.of(), Limits.DEFAULT);
        for (RankPlan rp : back.rankPlans()) assertTrue(rp.threadblocks().size() <= 64);
    }

    @Test
    void rcclLimitsAreRefusedOneAtATime() {
        Plan p = PlanLoader.load(TestPaths.examples().resolve("allreduce-ring.msccl"), Map.of("ranks", "4"), Limits.DEFAULT);
        // 65 steps in one threadblock.
        RankPlan rp = p.rank(0);
        Threadblock t = rp.tb(0);
        List<Step> steps = new ArrayList<>(t.steps());
        while (steps.size() <= RcclLimits.MAX_STEPS_PER_THREADBLOCK) steps.add(steps.get(0).withIndex(steps.size()).withDeps(List.of()));
        List<Threadblock> tbs = new ArrayList<>(rp.threadblocks());
        tbs.set(0, t.withSteps(steps));
        List<RankPlan> ranks = new ArrayList<>(p.rankPlans());
        ranks.set(0, new RankPlan(0, rp.buffers(), tbs));
        CompileException e = org.junit.jupiter.api.Assertions.assertThrows(CompileException.class,
                () -> RcclLimits.check(p.withRankPlans(ranks), "placed-xml"));
        assertTrue(e.getMessage().contains("rank 0 threadblock 0 has 65 steps as written; RCCL accepts at most 64 per threadblock"
                + " (MSCCL_MAX_NUM_STEPS)"), e.getMessage());
        assertEquals(1, e.diagnostics().size());
        // 33 threadblocks sending on one channel.
        List<Threadblock> many = new ArrayList<>();
        for (int i = 0; i < 33; i++) many.add(new Threadblock(i, 1, -1, 0, List.of(), p.pos()));
        ranks.set(0, new RankPlan(0, rp.buffers(), many));
        e = org.junit.jupiter.api.Assertions.assertThrows(CompileException.class,
                () -> RcclLimits.check(p.withRankPlans(ranks), "placed-xml"));
        assertTrue(e.getMessage().contains("rank 0 has 33 threadblocks that send on channel 0; RCCL accepts at most 32 per channel"),
                e.getMessage());
    }

    @Test
    void aTopologyWithoutADispatchRuleIsAUsageError(@TempDir Path tmp) {
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of(TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", "h200", "-o",
                out.toString(), "--emit", "placed-xml");
        run.assertRefused(2, out, "--emit placed-xml: h200 has no fixed dispatch rule (dispatch any)");
    }
}
