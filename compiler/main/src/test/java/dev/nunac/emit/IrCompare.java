package dev.nunac.emit;

import dev.nunac.ir.Dep;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Comparing plans across a trip through MSCCL-IR XML. */
final class IrCompare {
    private IrCompare() {}

    /**
     * The IR text without the header line and attributes, which record where a plan came from
     * (format, the XML header values, instances folded into the chunk factor).
     */
    static String body(Plan p) {
        return IrPrinter.print(p).lines()
                .filter(l -> !l.startsWith("  collective ") && !l.startsWith("  attribute "))
                .collect(Collectors.joining("\n"));
    }

    /** Moves the deps of operand-less nop steps onto the step after them, as before export. */
    static Plan foldNops(Plan p) {
        List<RankPlan> ranks = new ArrayList<>();
        for (RankPlan rp : p.rankPlans()) {
            Map<Dep, Integer> index = new HashMap<>();
            for (Threadblock t : rp.threadblocks()) {
                int n = 0;
                for (Step s : t.steps()) if (s.op() != OpKind.NOP) index.put(new Dep(t.id(), s.index()), n++);
            }
            List<Threadblock> tbs = new ArrayList<>();
            for (Threadblock t : rp.threadblocks()) {
                List<Step> steps = new ArrayList<>();
                List<Dep> pending = new ArrayList<>();
                for (Step s : t.steps()) {
                    List<Dep> deps = new ArrayList<>();
                    for (Dep d : s.deps()) deps.add(new Dep(d.tb(), index.getOrDefault(d, d.step())));
                    if (s.op() == OpKind.NOP) {
                        pending.addAll(deps);
                        continue;
                    }
                    pending.addAll(deps);
                    pending.sort(null);
                    steps.add(s.withIndex(steps.size()).withDeps(pending));
                    pending = new ArrayList<>();
                }
                tbs.add(t.withSteps(steps));
            }
            ranks.add(new RankPlan(rp.rank(), rp.buffers(), tbs));
        }
        return p.withRankPlans(ranks);
    }
}
