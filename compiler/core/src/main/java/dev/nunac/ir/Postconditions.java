package dev.nunac.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * What a standard collective must leave in the output buffers, defined once: the checker proves
 * a plan meets it, and the launch table carries it so the runtime checks a run's data against
 * the compiler's statement instead of its own. With n ranks and c chunks per rank slot
 * (MSCCLang's collectives):
 * <ul>
 * <li>allgather: output[r][p*c + i] = input[p][i]
 * <li>allreduce: output[r][i] = ⊕_p input[p][i]
 * <li>reducescatter: output[r][i] = ⊕_p input[p][r*c + i]
 * <li>alltoall: output[r][p*c + i] = input[p][r*c + i]
 * <li>broadcast (root q): output[r][i] = input[q][i]
 * <li>reduce (root q): output[q][i] = ⊕_p input[p][i]
 * </ul>
 * A custom collective states nothing.
 */
public final class Postconditions {
    private Postconditions() {}

    /**
     * A run of {@code count} output chunks of {@code rank} from {@code output[index]} on: each
     * equal to the input chunk at the same offset from {@code input[srcIndex]} of
     * {@code srcRank}, or, when {@code reduced}, to the reduction of that chunk over every rank
     * ({@code srcRank} is then -1).
     */
    public record Run(int rank, int index, int count, boolean reduced, int srcRank, int srcIndex) {}

    /** The runs of rank {@code rank}'s output, in output order. */
    public static List<Run> of(Plan plan, int rank) {
        int n = plan.ranks(), c = plan.effectiveChunkFactor();
        int root = Integer.parseInt(plan.attributes().getOrDefault("root", "0"));
        List<Run> out = new ArrayList<>();
        switch (plan.collective()) {
            case ALLGATHER -> {
                for (int p = 0; p < n; p++) out.add(new Run(rank, p * c, c, false, p, 0));
            }
            case ALLTOALL -> {
                for (int p = 0; p < n; p++) out.add(new Run(rank, p * c, c, false, p, rank * c));
            }
            case ALLREDUCE -> out.add(new Run(rank, 0, c, true, -1, 0));
            case REDUCESCATTER -> out.add(new Run(rank, 0, c, true, -1, rank * c));
            case BROADCAST -> out.add(new Run(rank, 0, c, false, root, 0));
            case REDUCE -> {
                if (rank == root) out.add(new Run(rank, 0, c, true, -1, 0));
            }
            case CUSTOM -> { }
        }
        return out;
    }
}
