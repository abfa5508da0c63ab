package dev.nunac.diag;

public enum Severity {
    ERROR, WARNING, NOTE;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
