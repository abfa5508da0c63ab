package dev.nunac.ir;

import dev.nunac.diag.SourcePos;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A collective plan: the IR every front end produces and every pass reads. Immutable.
 *
 * @param chunkFactor chunks per rank slot before instance replication
 * @param instances   replication factor already applied to buffers and threadblocks
 * @param attributes  format-specific header values kept for exporters (e.g. MSCCL's minBytes),
 *                    sorted so that printing is deterministic
 */
public record Plan(String name, Collective collective, int ranks, int chunkFactor, boolean inplace,
                   Protocol protocol, int instances, List<RankPlan> rankPlans, PlanFormat format,
                   SortedMap<String, String> attributes, SourcePos pos) {
    public Plan {
        rankPlans = List.copyOf(rankPlans);
        attributes = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
    }

    public RankPlan rank(int r) {
        return rankPlans.get(r);
    }

    /** Chunks per rank slot after replication: the unit of the collective's postcondition. */
    public int effectiveChunkFactor() {
        return chunkFactor * instances;
    }

    public int threadblockCount() {
        int n = 0;
        for (RankPlan r : rankPlans) n += r.threadblocks().size();
        return n;
    }

    public int stepCount() {
        int n = 0;
        for (RankPlan r : rankPlans) n += r.stepCount();
        return n;
    }

    public Plan withRankPlans(List<RankPlan> rps) {
        return new Plan(name, collective, ranks, chunkFactor, inplace, protocol, instances, rps, format, attributes, pos);
    }

    public Plan withAttributes(Map<String, String> attrs) {
        return new Plan(name, collective, ranks, chunkFactor, inplace, protocol, instances, rankPlans, format,
                new TreeMap<>(attrs), pos);
    }
}
