package dev.nunac.passes.alloc;

import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Stage;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.access.TbAccess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Logical allocation (paper §4.2.1): threadblocks in plan order (rank, then threadblock id); a
 * threadblock none of whose chunks belongs to a group opens a new group; otherwise it joins the
 * group with which it shares the most chunks, and its unassigned chunks join that group too
 * (a chunk stays in the first group that claimed it). Groups may span ranks.
 *
 * <p>Ties: among groups sharing equally many chunks, the one created first wins. The result is
 * sorted by decreasing number of threadblocks; equal sizes keep creation order.
 *
 * <p>{@link #allocate(Accesses, boolean)} with {@code paper = false} is nunac's variant for its
 * balanced policy: only the chunks a threadblock moves itself join it to a group — not a shared
 * read-only chunk (an all-gather's input, read by the senders to every peer), nor a chunk it only
 * receives into (its sender's stores write it) — so a direct all-gather or all-to-all falls into
 * one group per transfer instead of one group for the whole collective.
 */
public final class LogicalAllocation extends BasePass {
    public LogicalAllocation() {
        super("logical-allocation", Stage.LOGICALLY_ALLOCATED, java.util.List.of(Accesses.KEY), Stage.ACCESS_ANALYSED);
    }

    @Override
    public void run(Compilation c) {
        c.put(LogicalGroups.KEY, allocate(c.get(Accesses.KEY)));
    }

    public static LogicalGroups allocate(Accesses acc) {
        return allocate(acc, true);
    }

    public static LogicalGroups allocate(Accesses acc, boolean paper) {
        boolean[] skip = paper ? new boolean[acc.space().size()] : acc.sharedReadOnly();
        int[] groupOfChunk = new int[acc.space().size()];
        Arrays.fill(groupOfChunk, -1);
        List<List<Integer>> members = new ArrayList<>();
        List<int[]> chunkLists = new ArrayList<>();
        List<Integer> chunkCounts = new ArrayList<>();
        int[] groupOfTb = new int[acc.threadblocks().size()];
        int[] votes = new int[16];
        int[] touched = new int[16];
        for (int t = 0; t < acc.threadblocks().size(); t++) {
            TbAccess tb = acc.threadblocks().get(t);
            if (votes.length < members.size() + 1) votes = Arrays.copyOf(votes, Math.max(votes.length * 2, members.size() + 1));
            int nTouched = 0;
            int[] binding = paper ? tb.chunks() : tb.moves();
            for (int ch : binding) {
                int g = groupOfChunk[ch];
                if (g < 0 || skip[ch]) continue;
                if (votes[g]++ == 0) {
                    if (nTouched == touched.length) touched = Arrays.copyOf(touched, nTouched * 2);
                    touched[nTouched++] = g;
                }
            }
            int best = -1;
            for (int i = 0; i < nTouched; i++) {
                int g = touched[i];
                if (best < 0 || votes[g] > votes[best] || (votes[g] == votes[best] && g < best)) best = g;
            }
            for (int i = 0; i < nTouched; i++) votes[touched[i]] = 0;
            if (best < 0) {
                best = members.size();
                members.add(new ArrayList<>());
                chunkCounts.add(0);
            }
            members.get(best).add(t);
            groupOfTb[t] = best;
            int added = 0;
            for (int ch : binding) {
                if (groupOfChunk[ch] < 0 && !skip[ch]) {
                    groupOfChunk[ch] = best;
                    added++;
                }
            }
            chunkCounts.set(best, chunkCounts.get(best) + added);
        }
        for (int g = 0; g < members.size(); g++) chunkLists.add(new int[chunkCounts.get(g)]);
        int[] fill = new int[members.size()];
        for (int ch = 0; ch < groupOfChunk.length; ch++) {
            int g = groupOfChunk[ch];
            if (g >= 0) chunkLists.get(g)[fill[g]++] = ch;
        }
        List<LogicalGroup> groups = new ArrayList<>();
        for (int g = 0; g < members.size(); g++) groups.add(new LogicalGroup(g, List.copyOf(members.get(g)), chunkLists.get(g)));
        groups.sort(Comparator.comparingInt(LogicalGroup::size).reversed().thenComparingInt(LogicalGroup::id));
        return new LogicalGroups(List.copyOf(groups), groupOfTb);
    }
}
