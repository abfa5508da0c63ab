package dev.nunac.passes.place;

import dev.nunac.ir.ChunkSpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * The pages of every storage buffer and which chunk lives where (M_memory at page grain).
 *
 * <p>Natural layout: chunk i of a buffer occupies bytes [i·c, (i+1)·c); the first chunk to touch
 * a page fixes its stack and domain, and a later chunk that wanted another stack is a conflict.
 *
 * <p>Packed layout, for chunks smaller than a page under NUNA-aware memory (the paper's "we pack
 * multiple chunks into the first-chosen page"): a chunk placed on stack s in domain d takes the
 * next free slot of the open page of (s, d), or opens a new page there, so a page only ever holds
 * chunks that want the same stack and domain. The layout is emitted (chunk → slot) for a runtime
 * that maps the buffer accordingly; it may need a few more pages than the natural one.
 */
final class PageAllocator {
    final ChunkSpace space;
    final List<ChunkSpace.Storage> storages;
    final long cb, pageBytes;
    final int nStacks;
    final boolean packed;
    final int perPage;
    private final int[][] stack, domain, slot, fill;
    private final int[] used;
    private final List<Map<Integer, Integer>> open = new ArrayList<>();
    int conflicts, untouched;

    PageAllocator(ChunkSpace space, long cb, long pageBytes, int nStacks, boolean packed, int domains) {
        this.space = space;
        this.storages = space.storages();
        this.cb = cb;
        this.pageBytes = pageBytes;
        this.nStacks = nStacks;
        this.packed = packed;
        this.perPage = (int) PageMap.slotsPerPage(cb, pageBytes);
        int n = storages.size();
        stack = new int[n][];
        domain = new int[n][];
        slot = new int[n][];
        fill = new int[n][];
        used = new int[n];
        for (int s = 0; s < n; s++) {
            int chunks = storages.get(s).chunks();
            int pages = packed
                    ? (int) Math.min(chunks, (chunks + perPage - 1) / perPage + (long) nStacks * (domains + 1))
                    : (int) ((chunks * cb + pageBytes - 1) / pageBytes);
            stack[s] = new int[pages];
            domain[s] = new int[pages];
            Arrays.fill(stack[s], -1);
            Arrays.fill(domain[s], -1);
            if (packed) {
                slot[s] = new int[chunks];
                fill[s] = new int[pages];
                Arrays.fill(slot[s], -1);
            } else {
                used[s] = pages;
            }
            open.add(new HashMap<>());
        }
    }

    private int storage(int ch) {
        return space.storageIndexOf(ch);
    }

    private int index(int s, int ch) {
        return ch - storages.get(s).firstId();
    }

    /** First page of chunk {@code ch}, or -1 when a packed chunk has no slot yet. */
    int firstPage(int ch) {
        int s = storage(ch), i = index(s, ch);
        if (packed) return slot[s][i] < 0 ? -1 : slot[s][i] / perPage;
        return (int) (i * cb / pageBytes);
    }

    int lastPage(int ch) {
        int s = storage(ch), i = index(s, ch);
        if (packed) return firstPage(ch);
        return (int) Math.min(stack[s].length - 1, ((i + 1) * cb - 1) / pageBytes);
    }

    int stackOfPage(int s, int p) {
        return p >= 0 && p < stack[s].length ? stack[s][p] : -1;
    }

    int domainOfPage(int s, int p) {
        return p >= 0 && p < domain[s].length ? domain[s][p] : -1;
    }

    /** The stack of a chunk's first page, -1 while unplaced. */
    int stackOf(int ch) {
        return stackOfPage(storage(ch), firstPage(ch));
    }

    int domainOf(int ch) {
        return domainOfPage(storage(ch), firstPage(ch));
    }

    /** Puts a chunk on {@code st} in {@code dom} (-1: the hashed segment). */
    void put(int ch, int st, int dom) {
        int s = storage(ch), i = index(s, ch);
        if (packed) {
            int key = st * 4099 + dom + 1;
            Integer p = open.get(s).get(key);
            if (p == null || fill[s][p] == perPage) {
                p = used[s]++;
                stack[s][p] = st;
                domain[s][p] = dom;
                open.get(s).put(key, p);
            }
            slot[s][i] = p * perPage + fill[s][p]++;
            return;
        }
        for (int p = firstPage(ch); p <= lastPage(ch); p++) {
            if (stack[s][p] < 0) {
                stack[s][p] = st;
                domain[s][p] = dom;
            } else if (stack[s][p] != st) {
                conflicts++;
            }
        }
    }

    /** Deals every page not yet placed round-robin over the stacks of its rank; counts them. */
    void fillRest(int ranks, boolean countUntouched) {
        int[] next = new int[ranks];
        for (int s = 0; s < storages.size(); s++) {
            int r = storages.get(s).rank();
            if (packed) {
                for (int i = 0; i < slot[s].length; i++) {
                    if (slot[s][i] >= 0) continue;
                    int before = used[s];
                    put(storages.get(s).firstId() + i, next[r] % nStacks, -1);
                    if (used[s] > before) {
                        next[r]++;
                        if (countUntouched) untouched++;
                    }
                }
            } else {
                for (int p = 0; p < stack[s].length; p++) {
                    if (stack[s][p] >= 0) continue;
                    stack[s][p] = next[r]++ % nStacks;
                    if (countUntouched) untouched++;
                }
            }
        }
    }

    /** Under NAR with baseline memory, every page takes the domain {@code of} its stack. */
    void domainsFromStacks(IntUnaryOperator of) {
        for (int s = 0; s < storages.size(); s++) {
            for (int p = 0; p < used[s]; p++) domain[s][p] = of.applyAsInt(stack[s][p]);
        }
    }

    List<PageMap> maps() {
        List<PageMap> out = new ArrayList<>();
        for (int s = 0; s < storages.size(); s++) {
            out.add(new PageMap(storages.get(s).rank(), storages.get(s).buffer(), Arrays.copyOf(stack[s], used[s]),
                    Arrays.copyOf(domain[s], used[s]), packed ? slot[s].clone() : null));
        }
        return List.copyOf(out);
    }
}
