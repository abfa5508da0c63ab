package dev.nunac.passes.cost;

import java.util.Locale;

/**
 * A GEMM running beside the collective on every GPU (the paper's §6.6, Fig. 14): {@code tiles}
 * threadblocks, dispatched by the hardware's rule as a kernel unaware of NUNA would be, each
 * computing one square fp16 tile. A tile loads its inputs (an m×m panel of A and one of B,
 * {@code inputBytes} = 4m² bytes) from HBM, computes for {@code 2m³ / (peak / CUs)} (every CU
 * at its share of the GPU's peak), then stores its m×m output (2m² bytes). The GEMM's pages are
 * dealt round-robin over the stacks, as the baseline places memory.
 */
public record Gemm(int tiles, long inputBytes) {
    /** A 128×128 tile: 64 KiB of inputs, 32 KiB of output. */
    public static final long DEFAULT_INPUT_BYTES = 64 * 1024;
    /**
     * The GPU's fp16/bf16 peak, 25 PFLOPS: the NUNA paper's Table 2 (published for nuna-4die;
     * assumed for every other topology, whose specs give no compute figure).
     */
    public static final double PEAK_FLOPS = 25e15;
    public static final int MAX_TILES = 65_536;
    /** 4 GiB of inputs per tile at most. */
    public static final long MAX_INPUT_BYTES = 1L << 32;

    public Gemm {
        if (tiles < 1 || tiles > MAX_TILES) throw new IllegalArgumentException("tiles must be in 1.." + MAX_TILES + ", got " + tiles);
        if (inputBytes < 4 || inputBytes > MAX_INPUT_BYTES) {
            throw new IllegalArgumentException("a tile's input bytes must be in 4.." + MAX_INPUT_BYTES + ", got " + inputBytes);
        }
    }

    /** The tile's edge m, elements. */
    public long edge() {
        return Math.max(1, (long) Math.floor(Math.sqrt(inputBytes / 4.0)));
    }

    public long outputBytes() {
        return 2 * edge() * edge();
    }

    public double flops() {
        double m = edge();
        return 2 * m * m * m;
    }

    /** A tile's compute delay on a GPU of {@code cus} compute units. */
    public double computeNs(int cus) {
        return flops() / (PEAK_FLOPS / Math.max(1, cus)) * 1e9;
    }

    /** Bytes the whole GEMM moves on one GPU: every tile's inputs and output. */
    public long bytesPerGpu() {
        return tiles * (inputBytes + outputBytes());
    }

    public String describe(int cus) {
        return String.format(Locale.ROOT, "gemm of %d tiles per GPU, each %d x %d fp16: loads %d B, computes %.1f ns"
                + " (2m^3 flops at 25 PFLOPS / %d CUs), stores %d B", tiles, edge(), edge(), inputBytes, computeNs(cus), cus, outputBytes());
    }
}
