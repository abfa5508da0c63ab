package dev.nunac.topology;

/** The NoC routing function. */
public enum Routing {
    /** Dimension order on a mesh: all X hops first, then Y. */
    XY,
    /** Least total link latency, then fewest hops, then lowest router indices. */
    SHORTEST;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
