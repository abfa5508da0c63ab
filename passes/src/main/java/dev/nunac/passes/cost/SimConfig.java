package dev.nunac.passes.cost;

/**
 * Knobs of the simulator that are not properties of the hardware. {@code flitBytes}: the unit
 * of NoC and scale-up traffic (the paper's 256 B cache-line flits). A transfer is cut into at
 * most {@code maxBatches} batches of at least {@code minBatchFlits} flits, and each batch is
 * split into parcels by route using at most {@code samplesPerBatch} representative flits: this
 * bounds the work per transfer, whatever its size. {@code horizonNs}: how far past the current
 * event a parcel may reserve servers before it waits for its next event (0: one event per stage).
 */
public record SimConfig(int flitBytes, int minBatchFlits, int maxBatches, int samplesPerBatch, double horizonNs) {
    public SimConfig {
        if (flitBytes < 1 || minBatchFlits < 1 || maxBatches < 1 || samplesPerBatch < 1 || !(horizonNs >= 0)) {
            throw new IllegalArgumentException("simulator settings must be positive");
        }
    }

    public static SimConfig defaults() {
        return new SimConfig(256, 16, 8, 8, 10);
    }

    public SimConfig withFlitBytes(int bytes) {
        return new SimConfig(bytes, minBatchFlits, maxBatches, samplesPerBatch, horizonNs);
    }
}
