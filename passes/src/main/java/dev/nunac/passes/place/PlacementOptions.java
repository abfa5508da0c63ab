package dev.nunac.passes.place;

import dev.nunac.pass.Key;

/**
 * What the user asked of placement. {@code nar}: {@link #NAR_AUTO} (the default) lets NAR
 * selection place and simulate every supported granularity and keep the fastest, {@link #NAR_OFF} forces baseline hashing, a positive value a granularity.
 * {@code sizeBytes}: the collective's size, i.e. the bytes of the largest per-rank buffer
 * (all-gather's output, all-reduce's input), which fixes the bytes per chunk.
 */
public record PlacementOptions(Policy policy, int nar, long sizeBytes) {
    public static final Key<PlacementOptions> KEY = Key.of("placement-options", PlacementOptions.class);
    public static final int NAR_AUTO = 0;
    public static final int NAR_DEFAULT = NAR_AUTO;
    public static final int NAR_OFF = -1;
    public static final long DEFAULT_SIZE = 1L << 20;

    public static PlacementOptions defaults() {
        return new PlacementOptions(Policy.NAP_NAR, NAR_DEFAULT, DEFAULT_SIZE);
    }
}
