package dev.nunac.passes.cost;

import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.TbNumbering;
import dev.nunac.ir.Threadblock;
import dev.nunac.ir.Transfers;

/**
 * The plan's steps flattened into dense ids: threadblocks in plan order (the order of
 * {@code Placement.cuOfTb}), steps in order within each. For every step the steps it waits on
 * (dependency edges, same rank) and, for a receive or a wait, the sending step or signal that
 * feeds it; for a sending step, the receiving step whose destination it writes.
 */
final class StepGraph {
    final Plan plan;
    final int tbCount;
    /** Threadblock ids by global index (the index of {@code tbStart}, {@code rankOfTb}, {@code tbOfStep}). */
    final TbNumbering tbIds;
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

    /** Shared by the steps that wait on none (most of a large plan's). */
    private static final int[] NO_DEPS = {};

    StepGraph(Plan plan) {
        this.plan = plan;
        this.tbIds = TbNumbering.of(plan);
        this.tbCount = tbIds.count();
        tbStart = new int[tbCount + 1];
        rankOfTb = new int[tbCount];
        Transfers transfers = Transfers.of(plan);
        int t = 0;
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock tb : rp.threadblocks()) {
                rankOfTb[t] = rp.rank();
                tbStart[t++] = transfers.stepId(rp.rank(), tb.id(), 0);
            }
        }
        // Threadblock t's steps follow one another, so step numbers are the pairing's own.
        stepCount = transfers.stepCount();
        tbStart[t] = stepCount;
        steps = new Step[stepCount];
        tbOfStep = new int[stepCount];
        deps = new int[stepCount][];
        senderOf = new int[stepCount];
        receiverOf = new int[stepCount];
        t = 0;
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock tb : rp.threadblocks()) {
                for (Step st : tb.steps()) {
                    int id = tbStart[t] + st.index();
                    steps[id] = st;
                    tbOfStep[id] = t;
                    senderOf[id] = transfers.senderId(id);
                    receiverOf[id] = transfers.receiverId(id);
                    deps[id] = st.deps().isEmpty() ? NO_DEPS : new int[st.deps().size()];
                    for (int i = 0; i < deps[id].length; i++) {
                        Dep dep = st.deps().get(i);
                        deps[id][i] = transfers.stepId(rp.rank(), dep.tb(), dep.step());
                    }
                }
                t++;
            }
        }
    }

    int rankOfStep(int step) {
        return rankOfTb[tbOfStep[step]];
    }
}
