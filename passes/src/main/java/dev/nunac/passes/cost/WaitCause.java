package dev.nunac.passes.cost;

/**
 * Why a step could not start earlier, as a critical path reports it: it is its threadblock's
 * first step, or it waited for its threadblock's previous step, for a dependency, or for a
 * peer's data or signal. {@link #text} is the word reports and JSON print.
 */
public enum WaitCause {
    START("start"),
    PREVIOUS_STEP("previous step"),
    DEPENDENCY("dependency"),
    PEER_DATA("peer data");

    private static final WaitCause[] BY_ORDINAL = values();

    private final String text;

    WaitCause(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /** The cause the simulator stored as {@code ordinal} (a byte per step, for memory). */
    static WaitCause ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }
}
