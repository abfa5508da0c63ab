package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.driver.CompileResult;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.Dispatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan as MSCCL-IR XML with each rank's threadblocks renumbered into launch order
 * ({@code --emit placed-xml}). RCCL's MSCCL executor launches one block per {@code <tb>} with
 * {@code blockIdx.x} = its id, and under a modulo dispatch rule (MI300X SPX: block b runs on XCD
 * b mod 8) the id alone decides the die. So the threadblock at grid slot b of the realisation
 * gets id b, every slot the grid leaves idle gets an empty threadblock ({@code send="-1"
 * recv="-1"}, no steps), and every dependency is renamed to the new ids: stock RCCL then runs
 * each threadblock on the die nunac placed it on. Nothing but the ids changes; the file is
 * checked against what RCCL's parser accepts ({@link RcclLimits}) before it is written.
 */
public final class PlacedXml {
    private PlacedXml() {}

    public static String emit(CompileResult r) {
        refuseWithoutDispatchRule(r, "placed-xml");
        MscclXmlExporter.refuseOneSided(r.plan());
        RcclLimits.check(r.plan(), "placed-xml"); // what no order can fix is said of the plan itself, without padding
        Plan placed = placed(r.plan(), r.realised());
        RcclLimits.check(placed, "placed-xml");
        return MscclXmlExporter.export(placed);
    }

    /**
     * Under no fixed dispatch rule (NVIDIA: the block scheduler picks the SM) no threadblock
     * order places anything, and a file that looked placed would mislead.
     */
    static void refuseWithoutDispatchRule(CompileResult r, String what) {
        Dispatch d = r.topology().dispatch();
        if (d.rule() == Dispatch.Rule.ANY || d.dies().isEmpty()) {
            throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--emit " + what + ": " + r.topology().name()
                    + " has no fixed dispatch rule (dispatch " + d.rule().label() + "), so no threadblock order places blocks on its"
                    + " dies; write msccl-xml instead, or apply the placement with the runtime shim (nunac run)");
        }
    }

    /**
     * The plan with rank r's threadblock at grid slot b given id b (grids of {@code realised}),
     * an empty threadblock at each idle slot, and dependencies renamed to the new ids.
     */
    public static Plan placed(Plan plan, Realised realised) {
        List<RankPlan> ranks = new ArrayList<>();
        int maxTbs = 0;
        for (RankPlan rp : plan.rankPlans()) {
            Realised.RankLaunch launch = realised.ranks().get(rp.rank());
            int[] grid = launch.grid();
            int[] slotOf = launch.slotOfTb();
            List<Threadblock> tbs = new ArrayList<>(grid.length);
            for (int b = 0; b < grid.length; b++) {
                if (grid[b] < 0) {
                    tbs.add(new Threadblock(b, -1, -1, 0, List.of(), plan.pos()));
                    continue;
                }
                Threadblock t = rp.tb(grid[b]);
                List<Step> steps = new ArrayList<>(t.steps().size());
                for (Step s : t.steps()) {
                    List<Dep> deps = new ArrayList<>(s.deps().size());
                    for (Dep d : s.deps()) deps.add(new Dep(slotOf[d.tb()], d.step()));
                    steps.add(s.withDeps(deps));
                }
                tbs.add(t.withId(b).withSteps(steps));
            }
            maxTbs = Math.max(maxTbs, tbs.size());
            ranks.add(new RankPlan(rp.rank(), rp.buffers(), tbs));
        }
        Plan out = plan.withRankPlans(ranks);
        // An imported header's threadblock count (RCCL's test files carry one; the parser ignores it) follows the new grid.
        if (plan.attributes().containsKey("nthreadblocks")) {
            Map<String, String> a = new TreeMap<>(plan.attributes());
            a.put("nthreadblocks", String.valueOf(maxTbs));
            out = out.withAttributes(a);
        }
        return out;
    }
}
