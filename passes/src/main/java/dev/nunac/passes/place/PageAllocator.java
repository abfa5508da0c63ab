package dev.nunac.passes.place;

import dev.nunac.ir.ChunkSpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * The pages of every storage buffer and which chunk lives where (M_memory at page grain), in
 * the buffer's {@link PageMap.Layout}.
 *
 * <p>Placement votes: each chunk it places asks for a (stack, domain) for its pages, on behalf of
 * the threadblock that moves it (a voter, which the placer knows). A page of an aligned or
 * packed buffer belongs to one chunk, so its vote decides. A page of a natural buffer may hold
 * the tail of one chunk and the head of the next: when their votes differ (a conflict), the
 * page goes to the option that costs its voters least ({@link #resolve}) — not to whichever chunk
 * came first, as the paper's first-come, first-served rule has it ({@link #firstComeFirstServed},
 * which the paper's policies keep). Pages nobody votes for are dealt round-robin.
 */
final class PageAllocator {
    /** What a voter's bytes in a page would cost if the page were on {@code stack} in {@code domain}. */
    interface VoteCost {
        double of(int voter, int stack, int domain);
    }

    final ChunkSpace space;
    final List<ChunkSpace.Storage> storages;
    final long cb, pageBytes;
    final int nStacks;
    final PageMap.Layout[] layout;
    final int perPage;
    private final int[][] stack, domain, slot, fill, firstVoter;
    private final long[][] firstWeight;
    private final int[] used;
    private final List<Map<Integer, Integer>> open = new ArrayList<>();
    /** Votes that disagree with a page's first vote: (storage, page) → votes. */
    private final Map<Long, List<long[]>> disputed = new HashMap<>();
    int conflicts, untouched;

    PageAllocator(ChunkSpace space, long cb, long pageBytes, int nStacks, PageMap.Layout[] layout, int domains) {
        this.space = space;
        this.storages = space.storages();
        this.cb = cb;
        this.pageBytes = pageBytes;
        this.nStacks = nStacks;
        this.layout = layout;
        this.perPage = (int) PageMap.slotsPerPage(cb, pageBytes);
        int n = storages.size();
        stack = new int[n][];
        domain = new int[n][];
        slot = new int[n][];
        fill = new int[n][];
        firstVoter = new int[n][];
        firstWeight = new long[n][];
        used = new int[n];
        for (int s = 0; s < n; s++) {
            int chunks = storages.get(s).chunks();
            int pages = switch (layout[s]) {
                case NATURAL -> (int) ((chunks * cb + pageBytes - 1) / pageBytes);
                case ALIGNED -> (int) (chunks * (PageMap.alignedStride(cb, pageBytes) / pageBytes));
                case PACKED -> (int) Math.min(chunks, (chunks + perPage - 1) / perPage + (long) nStacks * (domains + 1));
            };
            stack[s] = new int[pages];
            domain[s] = new int[pages];
            firstVoter[s] = new int[pages];
            firstWeight[s] = new long[pages];
            Arrays.fill(stack[s], -1);
            Arrays.fill(domain[s], -1);
            Arrays.fill(firstVoter[s], -1);
            if (layout[s] == PageMap.Layout.PACKED) {
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

    private long offset(int s, int i) {
        return switch (layout[s]) {
            case NATURAL -> i * cb;
            case ALIGNED -> i * PageMap.alignedStride(cb, pageBytes);
            case PACKED -> slot[s][i] < 0 ? -1 : (long) slot[s][i] / perPage * pageBytes + (long) slot[s][i] % perPage * cb;
        };
    }

    /** First page of chunk {@code ch}, or -1 when a packed chunk has no slot yet. */
    int firstPage(int ch) {
        int s = storage(ch);
        long off = offset(s, index(s, ch));
        return off < 0 ? -1 : (int) (off / pageBytes);
    }

    int lastPage(int ch) {
        int s = storage(ch);
        long off = offset(s, index(s, ch));
        if (off < 0) return -1;
        return (int) Math.min(stack[s].length - 1, (off + cb - 1) / pageBytes);
    }

    /** Pages chunk {@code ch} spans (1 for packed chunks). */
    int pageCount(int ch) {
        int f = firstPage(ch);
        return f < 0 ? 1 : lastPage(ch) - f + 1;
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

    /** Asks for every page of chunk {@code ch} on {@code st} in {@code dom} (-1: the hashed segment), for {@code voter}. */
    void vote(int ch, int st, int dom, int voter) {
        int s = storage(ch), i = index(s, ch);
        if (layout[s] == PageMap.Layout.PACKED) {
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
        long off = offset(s, i);
        if (off < 0) return;
        int last = (int) Math.min(stack[s].length - 1, (off + cb - 1) / pageBytes);
        for (int p = (int) (off / pageBytes); p <= last; p++) votePage(s, off, p, st, dom, voter);
    }

    /** Asks for page {@code k} of chunk {@code ch} (0 = its first) alone; unpacked layouts only. */
    void votePage(int ch, int k, int st, int dom, int voter) {
        int s = storage(ch), i = index(s, ch);
        votePage(s, offset(s, i), firstPage(ch) + k, st, dom, voter);
    }

    /** Page {@code p} of storage {@code s}, asked for by the chunk that starts at byte {@code off}. */
    private void votePage(int s, long off, int p, int st, int dom, int voter) {
        long lo = Math.max(off, (long) p * pageBytes), hi = Math.min(off + cb, (long) (p + 1) * pageBytes);
        long bytes = Math.max(1, hi - lo);
        if (stack[s][p] < 0) {
            stack[s][p] = st;
            domain[s][p] = dom;
            firstVoter[s][p] = voter;
            firstWeight[s][p] = bytes;
        } else if (stack[s][p] != st || domain[s][p] != dom) {
            disputed.computeIfAbsent(((long) s << 32) | p, x -> new ArrayList<>()).add(new long[] {st, dom, voter, bytes});
        }
    }

    /**
     * Settles every disputed page: of the options — every stack, in any domain a voter asked for
     * or in the hashed segment — the one whose worst cost over the voters is least (a transfer has
     * delivered when its slowest flit has, so the voter that pays most decides), then whose cost
     * summed over the voters, each weighted by its bytes in the page, is least; ties go to the
     * first option asked for. Counts the disputed pages as conflicts.
     */
    void resolve(VoteCost cost) {
        List<Long> keys = new ArrayList<>(disputed.keySet());
        keys.sort(null);
        for (long key : keys) {
            int s = (int) (key >>> 32), p = (int) key;
            List<long[]> votes = new ArrayList<>();
            votes.add(new long[] {stack[s][p], domain[s][p], firstVoter[s][p], firstWeight[s][p]});
            votes.addAll(disputed.get(key));
            List<int[]> options = new ArrayList<>();
            java.util.LinkedHashSet<Integer> domains = new java.util.LinkedHashSet<>();
            for (long[] v : votes) {
                options.add(new int[] {(int) v[0], (int) v[1]});
                domains.add((int) v[1]);
            }
            domains.add(-1);
            for (int d : domains) for (int st = 0; st < nStacks; st++) options.add(new int[] {st, d});
            int[] best = options.get(0);
            double bestMax = Double.POSITIVE_INFINITY, bestSum = Double.POSITIVE_INFINITY;
            for (int[] o : options) {
                double max = 0, sum = 0;
                for (long[] v : votes) {
                    double c = v[2] < 0 ? 0 : cost.of((int) v[2], o[0], o[1]);
                    max = Math.max(max, c);
                    sum += v[3] * c;
                }
                if (max < bestMax - 1e-9 || (max <= bestMax + 1e-9 && sum < bestSum - 1e-9)) {
                    bestMax = max;
                    bestSum = sum;
                    best = o;
                }
            }
            stack[s][p] = best[0];
            domain[s][p] = best[1];
            conflicts++;
        }
        disputed.clear();
    }

    /** Settles disputed pages as the paper does: the first chunk to touch a page keeps it. Counts the conflicts. */
    void firstComeFirstServed() {
        conflicts += disputed.size();
        disputed.clear();
    }

    /** Deals every page not yet placed round-robin over the stacks of its rank; counts them. */
    void fillRest(int ranks, boolean countUntouched) {
        int[] next = new int[ranks];
        for (int s = 0; s < storages.size(); s++) {
            int r = storages.get(s).rank();
            if (layout[s] == PageMap.Layout.PACKED) {
                for (int i = 0; i < slot[s].length; i++) {
                    if (slot[s][i] >= 0) continue;
                    int before = used[s];
                    vote(storages.get(s).firstId() + i, next[r] % nStacks, -1, -1);
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
            out.add(new PageMap(storages.get(s).rank(), storages.get(s).buffer(), layout[s], Arrays.copyOf(stack[s], used[s]),
                    Arrays.copyOf(domain[s], used[s]), layout[s] == PageMap.Layout.PACKED ? slot[s].clone() : null));
        }
        return List.copyOf(out);
    }
}
