package dev.nunac.passes.check;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.Plan;
import java.util.ArrayList;
import java.util.List;

/**
 * What a standard collective must leave in the output buffers, with n ranks and c chunks per
 * rank slot (MSCCLang's collectives):
 * <ul>
 * <li>allgather: output[r][p*c + i] = input[p][i]
 * <li>allreduce: output[r][i] = ⊕_p input[p][i]
 * <li>reducescatter: output[r][i] = ⊕_p input[p][r*c + i]
 * <li>alltoall: output[r][p*c + i] = input[p][r*c + i]
 * <li>broadcast (root q): output[r][i] = input[q][i]
 * <li>reduce (root q): output[q][i] = ⊕_p input[p][i]
 * </ul>
 */
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
        int n = plan.ranks();
        int c = plan.effectiveChunkFactor();
        int root = Integer.parseInt(plan.attributes().getOrDefault("root", "0"));
        String coll = plan.collective().id();
        for (int r = 0; r < n; r++) {
            switch (plan.collective()) {
                case ALLGATHER -> {
                    for (int p = 0; p < n; p++) for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, p * c + i, single(ex, p, i));
                }
                case ALLREDUCE -> {
                    for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, i, sum(ex, n, i));
                }
                case REDUCESCATTER -> {
                    for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, i, sum(ex, n, r * c + i));
                }
                case ALLTOALL -> {
                    for (int p = 0; p < n; p++) for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, p * c + i, single(ex, p, r * c + i));
                }
                case BROADCAST -> {
                    for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, i, single(ex, root, i));
                }
                case REDUCE -> {
                    if (r == root) for (int i = 0; i < c; i++) expect(plan, ex, d, coll, r, i, sum(ex, n, i));
                }
                case CUSTOM -> { }
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
