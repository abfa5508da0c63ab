package dev.nunac.passes.check;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Postconditions;
import java.util.ArrayList;
import java.util.List;

/** The collective's postcondition ({@link Postconditions}) checked on the plan's symbolic execution. */
final class Postcondition {
    private Postcondition() {}

    static void check(Plan plan, SymbolicExecution ex, Diagnostics d) {
        checkAll(plan, ex, d);
        if (ex.wrongChunks > SHOWN) {
            d.error(plan.pos(), "postcondition of " + plan.collective().id() + ": " + (ex.wrongChunks - SHOWN)
                    + " more output chunks are wrong (" + ex.wrongChunks + " in all)");
        }
    }

    private static void checkAll(Plan plan, SymbolicExecution ex, Diagnostics d) {
        String coll = plan.collective().id();
        for (int r = 0; r < plan.ranks(); r++) {
            for (Postconditions.Run run : Postconditions.of(plan, r)) {
                for (int k = 0; k < run.count(); k++) {
                    int[] want = run.reduced() ? sum(ex, plan.ranks(), run.srcIndex() + k) : single(ex, run.srcRank(), run.srcIndex() + k);
                    expect(plan, ex, d, coll, r, run.index() + k, want);
                }
            }
        }
    }

    private static int[] single(SymbolicExecution ex, int rank, int index) {
        return new int[] {ex.id(rank, index)};
    }

    private static int[] sum(SymbolicExecution ex, int n, int index) {
        int[] ids = new int[n];
        for (int p = 0; p < n; p++) ids[p] = ex.id(p, index);
        return ids; // ids ascend with p, so already sorted
    }

    /** Wrong chunks reported in full; past this many, only counted. */
    private static final int SHOWN = 8;

    private static void expect(Plan plan, SymbolicExecution ex, Diagnostics d, String coll, int rank, int index, int[] want) {
        ChunkValue got = ex.valueAt(rank, Buffer.OUTPUT, index);
        if (got != null && got.sameAs(want)) return;
        if (ex.wrongChunks++ >= SHOWN) return;
        d.error(plan.pos(), "postcondition of " + coll + " fails at rank " + rank + ", output[" + index + "]: expected "
                + describe(ex, want) + ", found " + (got == null ? "nothing" : got == ChunkValue.UNDEFINED
                ? "a value computed from an empty chunk" : describe(ex, got.ids)));
    }

    /** "input chunk 2 of rank 5", or "the reduction of input chunk 2 over ranks 0, 1, 3". */
    static String describe(SymbolicExecution ex, int[] ids) {
        int k = ex.inputChunks();
        if (ids.length == 1) return "input chunk " + (ids[0] % k) + " of rank " + (ids[0] / k);
        boolean sameIndex = true;
        for (int id : ids) sameIndex &= id % k == ids[0] % k;
        List<String> parts = new ArrayList<>();
        if (sameIndex) {
            for (int id : ids) parts.add(String.valueOf(id / k));
            return "the reduction of input chunk " + (ids[0] % k) + " over ranks " + abbreviate(parts);
        }
        for (int id : ids) parts.add("r" + (id / k) + "[" + (id % k) + "]");
        return "the reduction of input chunks " + abbreviate(parts);
    }

    private static String abbreviate(List<String> parts) {
        if (parts.size() <= 12) return String.join(", ", parts);
        return String.join(", ", parts.subList(0, 10)) + ", ... (" + parts.size() + " in all)";
    }
}
