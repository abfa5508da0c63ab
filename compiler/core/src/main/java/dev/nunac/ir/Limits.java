package dev.nunac.ir;

/**
 * Resource bounds on inputs, so that a hostile or mistaken plan fails fast with a clear message
 * instead of exhausting time or memory. Defaults are documented in docs/errors.md; every one can
 * be changed with {@code --limit NAME=VALUE}.
 */
public record Limits(long maxInputBytes, int maxNesting, int maxRanks, int maxThreadblocksPerRank,
                     long maxSteps, long maxLoopIterations) {
    public static final Limits DEFAULT = new Limits(256L << 20, 256, 4096, 65_536, 20_000_000L, 100_000_000L);

    public Limits with(String name, long value) {
        return switch (name) {
            case "input-bytes" -> new Limits(value, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations);
            case "nesting" -> new Limits(maxInputBytes, (int) Math.min(value, Integer.MAX_VALUE), maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations);
            case "ranks" -> new Limits(maxInputBytes, maxNesting, (int) Math.min(value, Integer.MAX_VALUE), maxThreadblocksPerRank, maxSteps, maxLoopIterations);
            case "threadblocks" -> new Limits(maxInputBytes, maxNesting, maxRanks, (int) Math.min(value, Integer.MAX_VALUE), maxSteps, maxLoopIterations);
            case "steps" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, value, maxLoopIterations);
            case "loop-iterations" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, value);
            default -> throw new IllegalArgumentException("unknown limit '" + name
                    + "' (known: input-bytes, nesting, ranks, threadblocks, steps, loop-iterations)");
        };
    }
}
