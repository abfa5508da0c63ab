package dev.nunac.ir;

/**
 * {@code count} contiguous chunks starting at {@code index} of buffer {@code buffer} on rank
 * {@code rank}: the paper's (chunk_id, buffer_type, gpu_id) with a length.
 */
public record ChunkRef(int rank, String buffer, int index, int count) {
    public ChunkRef {
        if (count < 1) throw new IllegalArgumentException("chunk count must be at least 1");
    }

    public static ChunkRef of(int rank, String buffer, int index) {
        return new ChunkRef(rank, buffer, index, 1);
    }

    /** The i-th single chunk of this reference. */
    public ChunkRef at(int i) {
        return new ChunkRef(rank, buffer, index + i, 1);
    }

    public int end() {
        return index + count;
    }

    /** {@code r3:output[5]} or {@code r3:output[5+2]} for two chunks. */
    @Override
    public String toString() {
        return "r" + rank + ":" + buffer + "[" + index + (count == 1 ? "" : "+" + count) + "]";
    }
}
