package dev.nunac.passes.place;

/**
 * Where the pages of one storage buffer of a rank live: {@code stack[p]} the HBM stack of page
 * p, {@code domain[p]} its NAR domain within the granularity's address segment (-1: the hashed
 * segment). {@code slot} is null for the natural layout (chunk i at byte i·c, c the chunk size);
 * under a packed layout chunk i sits in slot {@code slot[i]}: a page holds n = floor(page / c)
 * whole chunks from its start, so slot s is page s / n, byte (s mod n)·c of it, and no chunk
 * straddles two pages.
 */
public record PageMap(int rank, String buffer, int[] stack, int[] domain, int[] slot) {
    /** Slots of a packed page: the whole chunks that fit in it. */
    public static long slotsPerPage(long chunkBytes, long pageBytes) {
        return Math.max(1, pageBytes / chunkBytes);
    }

    /** The byte offset of chunk {@code i} in the buffer's layout. */
    public long byteOffset(int i, long chunkBytes, long pageBytes) {
        if (slot == null) return (long) i * chunkBytes;
        long n = slotsPerPage(chunkBytes, pageBytes);
        return slot[i] / n * pageBytes + slot[i] % n * chunkBytes;
    }

    /** The page holding byte 0 of chunk {@code i}. */
    public int pageOf(int i, long chunkBytes, long pageBytes) {
        return (int) (byteOffset(i, chunkBytes, pageBytes) / pageBytes);
    }
}
