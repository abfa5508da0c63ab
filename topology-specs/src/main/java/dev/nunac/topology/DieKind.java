package dev.nunac.topology;

/** What a die is for: compute (CUs/SMs), I/O or base (routing, memory controllers, ports). */
public enum DieKind {
    COMPUTE, IO, BASE;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
