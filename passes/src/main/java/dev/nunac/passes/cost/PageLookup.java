package dev.nunac.passes.cost;

import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import java.util.List;

/** Where a byte of a chunk range lives: its storage buffer, the page's stack and NAR domain. */
final class PageLookup {
    private final ChunkSpace space;
    private final List<ChunkSpace.Storage> storages;
    private final List<PageMap> pages;
    private final long chunkBytes, pageBytes;
    private final int stacks;

    PageLookup(ChunkSpace space, Placement pl, int stacks) {
        this.space = space;
        this.storages = space.storages();
        this.pages = pl.pages();
        this.chunkBytes = pl.chunkBytes();
        this.pageBytes = pl.pageBytes();
        this.stacks = stacks;
    }

    long chunkBytes() {
        return chunkBytes;
    }

    /**
     * The global address of byte {@code b} of {@code ref}: storage index in the high bits,
     * byte offset in the storage in the low 40; -1 when the range names no storage.
     */
    long address(ChunkRef ref, long b) {
        int j = (int) (b / chunkBytes);
        int idx = Math.min(ref.index() + j, ref.end() - 1);
        int id;
        try {
            id = space.id(ref.rank(), ref.buffer(), idx);
        } catch (IllegalArgumentException e) {
            return -1;
        }
        int si = space.storageIndexOf(id);
        // the buffer's layout: natural, or packed by placement (chunk -> slot, whole chunks per page)
        long off = pages.get(si).byteOffset(id - storages.get(si).firstId(), chunkBytes, pageBytes) + b % chunkBytes;
        return ((long) si << 40) | off;
    }

    int stack(long addr) {
        if (addr < 0) return -1;
        int[] st = pages.get((int) (addr >>> 40)).stack();
        int p = (int) ((addr & ((1L << 40) - 1)) / pageBytes);
        return p < st.length && st[p] >= 0 ? st[p] : (int) Math.floorMod(Hash.mix(addr / pageBytes), (long) stacks);
    }

    int domain(long addr) {
        if (addr < 0) return -1;
        int[] d = pages.get((int) (addr >>> 40)).domain();
        int p = (int) ((addr & ((1L << 40) - 1)) / pageBytes);
        return p < d.length ? d[p] : -1;
    }
}
