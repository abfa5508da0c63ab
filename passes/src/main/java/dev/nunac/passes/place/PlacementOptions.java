package dev.nunac.passes.place;

import dev.nunac.pass.Key;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What the user asked of placement. {@code policies}: the policies the placement search may
 * choose from — all of them by default ({@code --policy auto}), or one ({@code --policy nap+nar}
 * is the paper's Algorithm 1 and nothing else). {@code nar}: {@link #NAR_AUTO} (the default)
 * lets the search try every granularity the topology supports, {@link #NAR_OFF} forces baseline
 * hashing, a positive value one granularity. {@code sizeBytes}: the collective's size, i.e. the
 * bytes of the largest per-rank buffer (all-gather's output, all-reduce's input), which fixes the
 * bytes per chunk. {@code repack} ({@code --layout packed}): NUNA-aware memory may repack chunks
 * smaller than a page in every buffer, the collective's input and output included — the paper's
 * assumption, for a library that stages the data in buffers it lays out itself; by default the
 * caller's input and output keep their layout and only scratch buffers are nunac's to lay out.
 */
public record PlacementOptions(Set<Policy> policies, int nar, long sizeBytes, boolean repack, long maxPages, int maxBlocks) {
    public static final Key<PlacementOptions> KEY = Key.of("placement-options", PlacementOptions.class);
    public static final int NAR_AUTO = 0;
    public static final int NAR_DEFAULT = NAR_AUTO;
    public static final int NAR_OFF = -1;
    public static final long DEFAULT_SIZE = 1L << 20;

    /** No bound on the pages a placement maps: the API's default; the command line passes --limit pages. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    public PlacementOptions {
        if (policies.isEmpty()) throw new IllegalArgumentException("no policy to choose from");
        policies = Collections.unmodifiableSet(EnumSet.copyOf(policies));
    }

    /** No bound on the launch grid. */
    public PlacementOptions(Set<Policy> policies, int nar, long sizeBytes, boolean repack, long maxPages) {
        this(policies, nar, sizeBytes, repack, maxPages, 0);
    }

    public PlacementOptions(Set<Policy> policies, int nar, long sizeBytes, boolean repack) {
        this(policies, nar, sizeBytes, repack, UNBOUNDED);
    }

    public PlacementOptions(Set<Policy> policies, int nar, long sizeBytes) {
        this(policies, nar, sizeBytes, false);
    }

    /** One policy, at the granularities {@code nar} allows. */
    public PlacementOptions(Policy policy, int nar, long sizeBytes) {
        this(EnumSet.of(policy), nar, sizeBytes);
    }

    /** The search over every policy: the default. */
    public static PlacementOptions auto(int nar, long sizeBytes) {
        return new PlacementOptions(Policy.all(), nar, sizeBytes);
    }

    public static PlacementOptions defaults() {
        return auto(NAR_DEFAULT, DEFAULT_SIZE);
    }

    /** True when the search chooses among several policies. */
    public boolean searches() {
        return policies.size() > 1;
    }

    public PlacementOptions withSize(long bytes) {
        return new PlacementOptions(policies, nar, bytes, repack, maxPages, maxBlocks);
    }

    public PlacementOptions withPolicies(Set<Policy> ps) {
        return new PlacementOptions(ps, nar, sizeBytes, repack, maxPages, maxBlocks);
    }

    public PlacementOptions withRepack(boolean r) {
        return new PlacementOptions(policies, nar, sizeBytes, r, maxPages, maxBlocks);
    }

    /**
     * The most blocks a rank's launch grid may have, padding included (0: no bound): the search
     * chooses only placements whose realised grid fits, unless none does. A stock library that
     * launches the plan's threadblocks in grid order caps them (RCCL's MSCCL executor: 64).
     */
    public PlacementOptions withMaxBlocks(int blocks) {
        return new PlacementOptions(policies, nar, sizeBytes, repack, maxPages, blocks);
    }

    /** The most pages a placement may map ({@code --limit pages}); the search refuses a larger plan and size. */
    public PlacementOptions withMaxPages(long pages) {
        return new PlacementOptions(policies, nar, sizeBytes, repack, pages, maxBlocks);
    }
}
