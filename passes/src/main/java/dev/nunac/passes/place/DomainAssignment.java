package dev.nunac.passes.place;

import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.alloc.LogicalGroup;
import dev.nunac.passes.alloc.LogicalGroups;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Which NAR domain each threadblock's traffic goes through, for the policies that place
 * threadblocks near their ports. Indexed like the plan's threadblocks; -1 under hashing.
 */
public final class DomainAssignment {
    private DomainAssignment() {}

    /**
     * Algorithm 1, line 12: {@code nar ← (nar + 1) mod nar_max} before each logical group, from
     * {@code nar = 0}, so the groups (by decreasing size) take domains 1, 2, …, k − 1, 0, 1, …
     */
    public static int[] roundRobin(LogicalGroups groups, int k, int threadblocks) {
        int[] out = new int[threadblocks];
        Arrays.fill(out, -1);
        if (k <= 1) return out;
        int nar = 0;
        for (LogicalGroup g : groups.groups()) {
            nar = (nar + 1) % k;
            for (int m : g.members()) out[m] = nar;
        }
        return out;
    }

    /**
     * nunac's balancing: each logical group, largest first, goes to the domain where it raises the
     * most loaded (rank, domain) pair least; a group whose bytes on some rank exceed that rank's
     * fair share of one domain (its total over k) is split, its threadblocks placed one by one.
     * A threadblock's load is the bytes it moves. Ties go to the lower total, then the lower domain.
     */
    public static int[] balanced(PlacementInput in, LogicalGroups groups, int k) {
        List<TbAccess> tbs = in.accesses().threadblocks();
        int[] out = new int[tbs.size()];
        Arrays.fill(out, -1);
        if (k <= 1) return out;
        int ranks = in.plan().ranks();
        long[] perRank = new long[ranks];
        for (TbAccess t : tbs) perRank[t.rank()] += Math.max(1, t.moved());
        List<int[]> units = new ArrayList<>();
        long[] byRank = new long[ranks];
        for (LogicalGroup g : groups.groups()) {
            for (int m : g.members()) byRank[tbs.get(m).rank()] += Math.max(1, tbs.get(m).moved());
            boolean tooBig = false;
            for (int m : g.members()) {
                int r = tbs.get(m).rank();
                tooBig |= byRank[r] * k > perRank[r] + k - 1;
            }
            for (int m : g.members()) byRank[tbs.get(m).rank()] = 0;
            if (tooBig && g.size() > 1) {
                for (int m : g.members()) units.add(new int[] {m});
            } else {
                units.add(g.members().stream().mapToInt(Integer::intValue).toArray());
            }
        }
        long[] unitLoad = new long[units.size()];
        for (int u = 0; u < units.size(); u++) for (int m : units.get(u)) unitLoad[u] += Math.max(1, tbs.get(m).moved());
        Integer[] order = new Integer[units.size()];
        for (int u = 0; u < order.length; u++) order[u] = u;
        Arrays.sort(order, Comparator.comparingLong((Integer u) -> -unitLoad[u]).thenComparingInt(u -> u));
        long[][] load = new long[ranks][k];
        long[] total = new long[k];
        int[] rs = new int[8];
        long[] add = new long[8];
        for (int u : order) {
            int[] members = units.get(u);
            // the unit's bytes per rank it touches (a handful of ranks)
            int n = 0;
            for (int m : members) {
                int r = tbs.get(m).rank();
                int i = 0;
                while (i < n && rs[i] != r) i++;
                if (i == n) {
                    if (n == rs.length) {
                        rs = Arrays.copyOf(rs, n * 2);
                        add = Arrays.copyOf(add, n * 2);
                    }
                    rs[n] = r;
                    add[n++] = 0;
                }
                add[i] += Math.max(1, tbs.get(m).moved());
            }
            int best = -1;
            long bestPeak = Long.MAX_VALUE, bestTotal = Long.MAX_VALUE;
            for (int d = 0; d < k; d++) {
                long peak = 0;
                for (int i = 0; i < n; i++) peak = Math.max(peak, load[rs[i]][d] + add[i]);
                if (peak < bestPeak || (peak == bestPeak && total[d] < bestTotal)) {
                    best = d;
                    bestPeak = peak;
                    bestTotal = total[d];
                }
            }
            for (int i = 0; i < n; i++) load[rs[i]][best] += add[i];
            total[best] += unitLoad[u];
            for (int m : members) out[m] = best;
        }
        return out;
    }

    /**
     * nunac's balancing by address: the logical groups in the order of the first chunk their
     * threadblocks store to (their destination address: rank, buffer, index), cut into k runs of
     * equal bytes, the first run to domain 0, the next to domain 1, and so on (k = 1: all to domain 0). Threadblocks that
     * write neighbouring chunks — which may share a page — land in the same or the neighbouring
     * domain, and every GPU's buffers in few domains.
     */
    public static int[] byAddress(PlacementInput in, LogicalGroups groups, int k) {
        List<TbAccess> tbs = in.accesses().threadblocks();
        int[] out = new int[tbs.size()];
        if (k <= 1) return out; // one domain: all of it behind domain 0
        List<LogicalGroup> gs = new ArrayList<>(groups.groups());
        long[] key = new long[gs.size()], load = new long[gs.size()];
        long total = 0;
        for (int g = 0; g < gs.size(); g++) {
            key[g] = Long.MAX_VALUE;
            for (int m : gs.get(g).members()) {
                TbAccess t = tbs.get(m);
                long first = t.remote().length > 0 ? t.remote()[0] : t.moves().length > 0 ? t.moves()[0] : Long.MAX_VALUE / 2;
                key[g] = Math.min(key[g], first);
                load[g] += Math.max(1, t.moved());
            }
            total += load[g];
        }
        Integer[] order = new Integer[gs.size()];
        for (int g = 0; g < order.length; g++) order[g] = g;
        Arrays.sort(order, Comparator.comparingLong((Integer g) -> key[g]).thenComparingInt(g -> g));
        long before = 0;
        for (int g : order) {
            int d = (int) Math.min(k - 1, (before * k + load[g] / 2) / Math.max(1, total));
            for (int m : gs.get(g).members()) out[m] = d;
            before += load[g];
        }
        return out;
    }
}
