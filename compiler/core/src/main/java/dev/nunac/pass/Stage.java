package dev.nunac.pass;

/**
 * Ordered compile states, like javac's CompileState: each pass declares the stages it needs and
 * the one it establishes, and the pipeline checks the order before anything runs.
 */
public enum Stage {
    PARSED,
    CHECKED,
    ACCESS_ANALYSED,
    LOGICALLY_ALLOCATED,
    PLACED,
    REALISED,
    SIMULATED;
}
