package dev.nunac.passes.place;

/**
 * Where the pages of one storage buffer of a rank live: {@code stack[p]} the HBM stack of page
 * p, {@code domain[p]} its NAR domain within the granularity's address segment (-1: the hashed
 * segment), and how chunks lie in the buffer ({@link Layout}). {@code slot} is non-null only for
 * the packed layout.
 */
public record PageMap(int rank, String buffer, Layout layout, int[] stack, int[] domain, int[] slot) {
    /**
     * How chunk i of a buffer of chunk size c lies in its pages:
     * <ul>
     * <li>NATURAL: at byte i·c, as the collective's caller lays out its input and output; a chunk
     * may share its first and last page with its neighbours.
     * <li>ALIGNED: at byte i·s, s the chunk size rounded up to whole pages, so no two chunks share
     * a page (scratch buffers, whose layout is nunac's to choose).
     * <li>PACKED: chunks smaller than a page in slots: a page holds n = floor(page / c) whole
     * chunks from its start, chunk i in slot {@code slot[i]} (page slot / n, byte (slot mod n)·c),
     * and only chunks placed on the same stack and domain share a page (scratch buffers of
     * sub-page chunks).
     * </ul>
     */
    public enum Layout {
        NATURAL, ALIGNED, PACKED;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Slots of a packed page: the whole chunks that fit in it. */
    public static long slotsPerPage(long chunkBytes, long pageBytes) {
        return Math.max(1, pageBytes / chunkBytes);
    }

    /** The distance between aligned chunks: the chunk size rounded up to whole pages. */
    public static long alignedStride(long chunkBytes, long pageBytes) {
        return (chunkBytes + pageBytes - 1) / pageBytes * pageBytes;
    }

    /** The byte offset of chunk {@code i} in the buffer's layout. */
    public long byteOffset(int i, long chunkBytes, long pageBytes) {
        return switch (layout) {
            case NATURAL -> (long) i * chunkBytes;
            case ALIGNED -> (long) i * alignedStride(chunkBytes, pageBytes);
            case PACKED -> {
                long n = slotsPerPage(chunkBytes, pageBytes);
                yield slot[i] / n * pageBytes + slot[i] % n * chunkBytes;
            }
        };
    }

    /** The page holding byte 0 of chunk {@code i}. */
    public int pageOf(int i, long chunkBytes, long pageBytes) {
        return (int) (byteOffset(i, chunkBytes, pageBytes) / pageBytes);
    }

    /** The page holding the last byte of chunk {@code i}, capped at the buffer's last page. */
    public int lastPageOf(int i, long chunkBytes, long pageBytes) {
        long last = (byteOffset(i, chunkBytes, pageBytes) + chunkBytes - 1) / pageBytes;
        return (int) Math.min(stack.length - 1, last);
    }
}
