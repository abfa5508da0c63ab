package dev.nunac.passes.cost;

/**
 * Knobs of the simulator that are not properties of the hardware. {@code flitBytes}: the unit
 * of NoC and scale-up traffic (the paper's 256 B cache-line flits). A transfer is cut into at
 * most {@code maxBatches} batches of at least {@code minBatchFlits} flits, and each batch is
 * split into parcels by route using at most {@code samplesPerBatch} representative flits.
 * {@code batchesPerPlan} bounds the batches of the whole plan: a plan of many transfers gets
 * fewer per transfer (never fewer than 8), so a simulation's work stays bounded whatever the
 * plan's size. {@code horizonNs}: how far past the current event a parcel may reserve servers
 * before it waits for its next event (0: one event per stage).
 */
public record SimConfig(int flitBytes, int minBatchFlits, int maxBatches, int batchesPerPlan, int samplesPerBatch,
                        double horizonNs) {
    public SimConfig {
        if (flitBytes < 1 || minBatchFlits < 1 || maxBatches < 1 || batchesPerPlan < 1 || samplesPerBatch < 1 || !(horizonNs >= 0)) {
            throw new IllegalArgumentException("simulator settings must be positive");
        }
    }

    /**
     * Batches per transfer at most. Coarser batching makes each parcel a burst of hundreds of
     * flits on one route, which queues where real traffic would interleave: with 8 batches the
     * 8-GPU all-gather's speedup at 100 MB read 0.94×, with 256 batches 1.07×, with 1,024 1.07×
     * (and 1.02× against 1.03× at 1 GB with 4,096). Transfers of up to 16 × 1,024 flits (4 MiB)
     * are simulated in 16-flit batches; larger ones in 1,024 batches.
     */
    public static final int MAX_BATCHES = 1024;

    /** Batches of a whole plan at most: about a second and a half of simulation on one core. */
    public static final int BATCHES_PER_PLAN = 65_536;

    /** A transfer's batches never fall below this for lack of plan budget. */
    public static final int MIN_BATCHES = 8;

    public static SimConfig defaults() {
        return new SimConfig(256, 16, MAX_BATCHES, BATCHES_PER_PLAN, 8, 10);
    }

    public SimConfig withFlitBytes(int bytes) {
        return new SimConfig(bytes, minBatchFlits, maxBatches, batchesPerPlan, samplesPerBatch, horizonNs);
    }

    /** Batches per transfer for a plan of {@code transfers} data-moving steps. */
    public int batchesPerTransfer(int transfers) {
        return Math.max(Math.min(MIN_BATCHES, maxBatches), Math.min(maxBatches, batchesPerPlan / Math.max(1, transfers)));
    }
}
