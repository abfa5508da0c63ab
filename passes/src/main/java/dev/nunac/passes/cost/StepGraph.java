package dev.nunac.passes.cost;

import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.ir.Transfers;
import dev.nunac.ir.Transfers.Endpoint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan's steps flattened into dense ids: threadblocks in plan order (the order of
 * {@code Placement.cuOfTb}), steps in order within each. For every step the steps it waits on
 * (dependency edges, same rank) and, for a receive or a wait, the sending step or signal that
 * feeds it; for a sending step, the receiving step whose destination it writes.
 */
final class StepGraph {
    final Plan plan;
    final int tbCount;
    final int stepCount;
    /** First step id of each threadblock; {@code tbStart[tbCount] == stepCount}. */
    final int[] tbStart;
    final int[] rankOfTb;
    final Step[] steps;
    final int[] tbOfStep;
    /** Dependency step ids per step. */
    final int[][] deps;
    /** The step whose data (or signal) a receiving step waits for, else -1. */
    final int[] senderOf;
    /** The receiving step a sending step feeds, else -1. */
    final int[] receiverOf;

    StepGraph(Plan plan) {
        this.plan = plan;
        this.tbCount = plan.threadblockCount();
        tbStart = new int[tbCount + 1];
        rankOfTb = new int[tbCount];
        List<Map<Integer, Integer>> tbIndex = new java.util.ArrayList<>();
        int t = 0, s = 0;
        for (RankPlan rp : plan.rankPlans()) {
            Map<Integer, Integer> m = new HashMap<>();
            for (Threadblock tb : rp.threadblocks()) {
                m.put(tb.id(), t);
                rankOfTb[t] = rp.rank();
                tbStart[t++] = s;
                s += tb.steps().size();
            }
            tbIndex.add(m);
        }
        tbStart[t] = s;
        stepCount = s;
        steps = new Step[s];
        tbOfStep = new int[s];
        deps = new int[s][];
        senderOf = new int[s];
        receiverOf = new int[s];
        java.util.Arrays.fill(senderOf, -1);
        java.util.Arrays.fill(receiverOf, -1);
        Transfers transfers = Transfers.of(plan);
        t = 0;
        for (RankPlan rp : plan.rankPlans()) {
            Map<Integer, Integer> idx = tbIndex.get(rp.rank());
            for (Threadblock tb : rp.threadblocks()) {
                for (Step st : tb.steps()) {
                    int id = tbStart[t] + st.index();
                    steps[id] = st;
                    tbOfStep[id] = t;
                    int[] d = new int[st.deps().size()];
                    int n = 0;
                    for (Dep dep : st.deps()) {
                        Integer other = idx.get(dep.tb());
                        if (other != null && dep.step() < tbStart[other + 1] - tbStart[other]) d[n++] = tbStart[other] + dep.step();
                    }
                    deps[id] = java.util.Arrays.copyOf(d, n);
                }
                t++;
            }
        }
        for (var list : List.of(transfers.transfers(), transfers.signals())) {
            for (Transfers.Transfer tr : list) {
                int from = id(tbIndex, tr.from()), to = id(tbIndex, tr.to());
                if (from >= 0 && to >= 0) {
                    senderOf[to] = from;
                    receiverOf[from] = to;
                }
            }
        }
    }

    private int id(List<Map<Integer, Integer>> tbIndex, Endpoint e) {
        Integer tb = tbIndex.get(e.rank()).get(e.tb());
        return tb == null ? -1 : tbStart[tb] + e.step();
    }

    int rankOfStep(int step) {
        return rankOfTb[tbOfStep[step]];
    }
}
