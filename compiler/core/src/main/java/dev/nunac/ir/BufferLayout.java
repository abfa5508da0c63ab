package dev.nunac.ir;

/**
 * Where a (buffer, index) of a rank is stored once in-place aliasing is applied, as MSCCLang's
 * collectives define it: in-place all-gather's input is the output slice at rank * cf;
 * in-place reduce-scatter's output is the input slice at rank * cf; in-place all-reduce,
 * broadcast and reduce write their output over their input. MSCCLang has no in-place
 * all-to-all; MSCCL++'s writes the output over the input, and so does nunac's.
 */
public final class BufferLayout {
    private BufferLayout() {}

    /** A canonical storage location. */
    public record Slot(String buffer, int index) {}

    public static Slot resolve(Plan plan, int rank, String buffer, int index) {
        if (!plan.inplace()) return new Slot(buffer, index);
        int cf = plan.effectiveChunkFactor();
        return switch (plan.collective()) {
            case ALLGATHER -> buffer.equals(Buffer.INPUT) ? new Slot(Buffer.OUTPUT, rank * cf + index) : new Slot(buffer, index);
            case REDUCESCATTER -> buffer.equals(Buffer.OUTPUT) ? new Slot(Buffer.INPUT, rank * cf + index) : new Slot(buffer, index);
            case ALLREDUCE, ALLTOALL, BROADCAST, REDUCE -> buffer.equals(Buffer.OUTPUT) ? new Slot(Buffer.INPUT, index) : new Slot(buffer, index);
            default -> new Slot(buffer, index);
        };
    }

    /** Where index 0 of {@code buffer} lies in the buffer it aliases ({@link #resolve}), without overflow. */
    public static long shift(Plan plan, int rank, String buffer) {
        if (!plan.inplace()) return 0;
        long cf = (long) plan.chunkFactor() * plan.instances();
        return switch (plan.collective()) {
            case ALLGATHER -> buffer.equals(Buffer.INPUT) ? rank * cf : 0;
            case REDUCESCATTER -> buffer.equals(Buffer.OUTPUT) ? rank * cf : 0;
            default -> 0;
        };
    }

    /**
     * How many chunks of {@code buffer} a plan may address on {@code rank}: its declared size, or
     * for an aliased buffer declared empty (MSCCL's in-place files), the size the alias implies.
     */
    public static int capacity(Plan plan, int rank, String buffer) {
        return Math.toIntExact(extent(plan, rank, buffer));
    }

    /** {@link #capacity} without overflow, for checking an imported plan against the limits before anything is sized by it. */
    public static long extent(Plan plan, int rank, String buffer) {
        RankPlan rp = plan.rank(rank);
        int declared = rp.bufferChunks(buffer);
        if (declared > 0 || !plan.inplace()) return declared;
        boolean aliased = switch (plan.collective()) {
            case ALLGATHER -> buffer.equals(Buffer.INPUT);
            case REDUCESCATTER, ALLREDUCE, ALLTOALL, BROADCAST, REDUCE -> buffer.equals(Buffer.OUTPUT);
            default -> false;
        };
        if (!aliased) return declared;
        long cf = (long) plan.chunkFactor() * plan.instances(), ranks = plan.ranks();
        boolean perRank = buffer.equals(Buffer.INPUT)
                ? plan.collective() == Collective.REDUCESCATTER || plan.collective() == Collective.ALLTOALL
                : plan.collective() == Collective.ALLGATHER || plan.collective() == Collective.ALLTOALL;
        return perRank ? ranks * cf : cf;
    }
}
