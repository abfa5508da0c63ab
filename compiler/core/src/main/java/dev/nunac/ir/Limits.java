package dev.nunac.ir;

/**
 * Resource bounds on inputs, so that a hostile or mistaken plan fails fast with a clear message
 * instead of exhausting time or memory. Defaults are documented in docs/errors.md; every one can
 * be changed with {@code --limit NAME=VALUE}.
 *
 * @param maxElements   XML elements (or JSON values) in one imported plan document
 * @param maxAttributes attributes on one XML element (or members of one JSON object)
 * @param maxChunks     chunks in the buffers of all ranks of a plan, aliases resolved
 * @param maxPages      memory pages a placement of the plan may map, at the collective's size
 * @param maxEvaluations DSL evaluation steps in all: loop iterations, statements and expressions
 * @param maxStepChunks the chunks all steps of a plan name together (every step's count, summed):
 *                      the checker, access analysis and the DSL's dependency inference work per
 *                      chunk of every step, so this bounds them where the step limit cannot
 */
public record Limits(long maxInputBytes, int maxNesting, int maxRanks, int maxThreadblocksPerRank,
                     long maxSteps, long maxLoopIterations, long maxElements, int maxAttributes,
                     long maxChunks, long maxPages, long maxEvaluations, long maxStepChunks) {
    /**
     * Each default is reachable within a few seconds on two cores: an input at any of them is
     * read, checked or refused in that time (docs/errors.md has the measurements).
     */
    public static final Limits DEFAULT = new Limits(64L << 20, 256, 4096, 65_536, 250_000L, 10_000_000L,
            4_000_000L, 64, 1L << 22, 1L << 19, 50_000_000L, 1L << 24);

    /** The names {@link #with} accepts, for messages and help. */
    public static final String NAMES = "input-bytes, nesting, ranks, threadblocks, steps, loop-iterations, elements, attributes,"
            + " chunks, pages, evaluations, step-chunks";

    public Limits with(String name, long value) {
        int v = (int) Math.min(value, Integer.MAX_VALUE);
        long[] l = {maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements,
                maxAttributes, maxChunks, maxPages, maxEvaluations, maxStepChunks};
        int i = switch (name) {
            case "input-bytes" -> 0;
            case "nesting" -> 1;
            case "ranks" -> 2;
            case "threadblocks" -> 3;
            case "steps" -> 4;
            case "loop-iterations" -> 5;
            case "elements" -> 6;
            case "attributes" -> 7;
            case "chunks" -> 8;
            case "pages" -> 9;
            case "evaluations" -> 10;
            case "step-chunks" -> 11;
            default -> throw new IllegalArgumentException("unknown limit '" + name + "' (known: " + NAMES + ")");
        };
        // Counts that size arrays or number ids (steps, chunks, pages ...) are ints: a larger limit could not be honoured.
        l[i] = i == 0 || i == 5 || i == 6 || i == 10 || i == 11 ? value : v;
        return new Limits(l[0], (int) l[1], (int) l[2], (int) l[3], l[4], l[5], l[6], (int) l[7], l[8], l[9], l[10], l[11]);
    }
}
