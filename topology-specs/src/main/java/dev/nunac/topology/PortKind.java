package dev.nunac.topology;

import java.util.Locale;

/** What an off-chip port connects to. */
public enum PortKind {
    SCALE_UP("scale-up"), HOST("host"), NIC("nic");

    private final String label;

    PortKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static PortKind parse(String s) {
        for (PortKind k : values()) if (k.label.equals(s)) return k;
        return null;
    }

    @Override
    public String toString() {
        return label.toUpperCase(Locale.ROOT);
    }
}
