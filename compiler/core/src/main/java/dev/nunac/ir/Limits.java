package dev.nunac.ir;

/**
 * Resource bounds on inputs, so that a hostile or mistaken plan fails fast with a clear message
 * instead of exhausting time or memory. Defaults are documented in docs/errors.md; every one can
 * be changed with {@code --limit NAME=VALUE}.
 *
 * @param maxElements   XML elements (or JSON values) in one imported plan document
 * @param maxAttributes attributes on one XML element (or members of one JSON object)
 */
public record Limits(long maxInputBytes, int maxNesting, int maxRanks, int maxThreadblocksPerRank,
                     long maxSteps, long maxLoopIterations, long maxElements, int maxAttributes) {
    public static final Limits DEFAULT = new Limits(256L << 20, 256, 4096, 65_536, 20_000_000L, 100_000_000L,
            50_000_000L, 64);

    /** The names {@link #with} accepts, for messages and help. */
    public static final String NAMES = "input-bytes, nesting, ranks, threadblocks, steps, loop-iterations, elements, attributes";

    public Limits with(String name, long value) {
        int v = (int) Math.min(value, Integer.MAX_VALUE);
        return switch (name) {
            case "input-bytes" -> new Limits(value, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements, maxAttributes);
            case "nesting" -> new Limits(maxInputBytes, v, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements, maxAttributes);
            case "ranks" -> new Limits(maxInputBytes, maxNesting, v, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements, maxAttributes);
            case "threadblocks" -> new Limits(maxInputBytes, maxNesting, maxRanks, v, maxSteps, maxLoopIterations, maxElements, maxAttributes);
            case "steps" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, value, maxLoopIterations, maxElements, maxAttributes);
            case "loop-iterations" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, value, maxElements, maxAttributes);
            case "elements" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, value, maxAttributes);
            case "attributes" -> new Limits(maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements, v);
            default -> throw new IllegalArgumentException("unknown limit '" + name + "' (known: " + NAMES + ")");
        };
    }
}
