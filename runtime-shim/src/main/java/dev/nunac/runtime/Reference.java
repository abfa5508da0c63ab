package dev.nunac.runtime;

/**
 * The runtime's reference input pattern and each collective's expected output, computed in
 * Java independently of the native verifier, so tests can compare the two.
 */
public final class Reference {
    private Reference() {}

    /** Element e of input chunk c of rank r: nunart_input_value(). */
    public static float input(int rank, int chunk, int element) {
        long v = ((long) rank * 31 + (long) chunk * 7 + element) % 251;
        return (float) (v - 125);
    }

    /**
     * Expected output of {@code rank} for {@code chunks} output chunks of {@code chunkElems}
     * floats; NaN where the postcondition says nothing (non-root ranks of reduce, custom).
     */
    public static float[] output(String collective, int ranks, int cf, int root, int rank, int chunks, int chunkElems) {
        float[] out = new float[chunks * chunkElems];
        for (int c = 0; c < chunks; c++) {
            for (int e = 0; e < chunkElems; e++) {
                float v = Float.NaN;
                switch (collective) {
                    case "allgather" -> v = c < ranks * cf ? input(c / cf, c % cf, e) : Float.NaN;
                    case "alltoall" -> v = c < ranks * cf ? input(c / cf, rank * cf + c % cf, e) : Float.NaN;
                    case "broadcast" -> v = c < cf ? input(root, c, e) : Float.NaN;
                    case "allreduce" -> v = c < cf ? sum(ranks, c, e) : Float.NaN;
                    case "reduce" -> v = rank == root && c < cf ? sum(ranks, c, e) : Float.NaN;
                    case "reducescatter" -> {
                        if (c < cf) {
                            float s = 0;
                            for (int p = 0; p < ranks; p++) s += input(p, rank * cf + c, e);
                            v = s;
                        }
                    }
                    default -> { }
                }
                out[c * chunkElems + e] = v;
            }
        }
        return out;
    }

    private static float sum(int ranks, int c, int e) {
        float s = 0;
        for (int p = 0; p < ranks; p++) s += input(p, c, e);
        return s;
    }
}
