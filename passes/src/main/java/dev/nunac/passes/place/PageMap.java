package dev.nunac.passes.place;

/**
 * Where the pages of one storage buffer of a rank live: {@code stack[p]} the HBM stack of page
 * p, {@code domain[p]} its NAR domain within the granularity's address segment (-1: the hashed
 * segment). {@code slot} is null for the natural layout (chunk i at chunk offset i); under a
 * packed layout chunk i sits at chunk offset {@code slot[i]}.
 */
public record PageMap(int rank, String buffer, int[] stack, int[] domain, int[] slot) {
    /** The chunk offset of chunk {@code i} in the buffer's layout. */
    public int offsetOf(int i) {
        return slot == null ? i : slot[i];
    }
}
