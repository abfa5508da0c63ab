package dev.nunac.topology;

/** How GPUs of one scale-up domain connect. */
public enum ScaleUpModel {
    /** Single-level Clos: scale-up port i attaches to switch plane i; one switch hop to any peer. */
    CLOS,
    /** Fully connected box: each port is wired to one fixed peer. */
    DIRECT;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
