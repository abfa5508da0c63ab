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
 * @param maxInputSeconds seconds a plan file that is a FIFO or device may take to deliver its bytes
 */
public record Limits(long maxInputBytes, int maxNesting, int maxRanks, int maxThreadblocksPerRank,
                     long maxSteps, long maxLoopIterations, long maxElements, int maxAttributes,
                     long maxChunks, long maxPages, long maxEvaluations, long maxStepChunks, int maxInputSeconds) {
    /**
     * Each default is reachable within a few seconds on two cores: an input at any of them is
     * read, checked or refused in that time (docs/errors.md has the measurements).
     */
    public static final Limits DEFAULT = new Limits(64L << 20, 256, 4096, 65_536, 250_000L, 10_000_000L,
            4_000_000L, 64, 1L << 22, 1L << 19, 50_000_000L, 1L << 24, 5);

    /** The names {@link #with} accepts, for messages and help. */
    public static final String NAMES = "input-bytes, nesting, ranks, threadblocks, steps, loop-iterations, elements, attributes,"
            + " chunks, pages, evaluations, step-chunks, input-seconds";

    /**
     * The largest value each limit can be raised to, in the order of the components: what the
     * implementation can honour without running out of memory or stack. A whole input is held in
     * memory (1 GiB); nesting is followed by recursion (10000 levels fit the stack of any thread
     * that runs a plan); a placement holds a map entry per page (2^22 pages fit the heap of a
     * default JVM in about half a minute); counts that size arrays or number ids are ints. A DSL
     * program's evaluation is bounded in time only by its budgets, so those stop at 500,000,000:
     * an empty loop of that many iterations runs out in about half a minute of CPU on two busy
     * cores (a billion took 63 s), and a run can never go on without end.
     */
    private static final long[] MAX = {1L << 30, 10_000, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, 500_000_000L,
            Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, 1L << 22, 500_000_000L, Long.MAX_VALUE, 3600};

    /** Each limit's name with its maximum, for the help. */
    public static String maxima() {
        String[] names = NAMES.split(", ");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            long m = MAX[i];
            String v = m == Long.MAX_VALUE ? "2^63-1" : m == Integer.MAX_VALUE ? "2^31-1" : Long.toString(m);
            b.append(i == 0 ? "" : ", ").append(names[i]).append(" ").append(v);
        }
        return b.toString();
    }

    /** This limit set with {@code name} at {@code value}; IllegalArgumentException names an unknown limit or the maximum. */
    public Limits with(String name, long value) {
        long[] l = {maxInputBytes, maxNesting, maxRanks, maxThreadblocksPerRank, maxSteps, maxLoopIterations, maxElements,
                maxAttributes, maxChunks, maxPages, maxEvaluations, maxStepChunks, maxInputSeconds};
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
            case "input-seconds" -> 12;
            default -> throw new IllegalArgumentException("unknown limit '" + name + "' (known: " + NAMES + ")");
        };
        if (value > MAX[i]) throw new IllegalArgumentException("at most " + MAX[i] + ", the most nunac can honour");
        l[i] = value;
        return new Limits(l[0], (int) l[1], (int) l[2], (int) l[3], l[4], l[5], l[6], (int) l[7], l[8], l[9], l[10], l[11], (int) l[12]);
    }
}
