package dev.nunac.diag;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects diagnostics so a run can report several errors at once. Past {@link #limit()} errors
 * further ones are counted but not kept, so a broken input cannot flood the output.
 */
public final class Diagnostics {
    private final List<Diagnostic> items = new ArrayList<>();
    private final int limit;
    private int errors;
    private int dropped;

    public Diagnostics() {
        this(50);
    }

    public Diagnostics(int limit) {
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    public void error(SourcePos pos, String message) {
        add(Diagnostic.error(pos, message));
    }

    public void warning(SourcePos pos, String message) {
        add(Diagnostic.warning(pos, message));
    }

    public void add(Diagnostic d) {
        if (d.severity() == Severity.ERROR) errors++;
        if (items.size() >= limit) {
            dropped++;
            return;
        }
        items.add(d);
    }

    public void addAll(Diagnostics other) {
        other.items.forEach(this::add);
    }

    public boolean hasErrors() {
        return errors > 0;
    }

    public int errorCount() {
        return errors;
    }

    public int dropped() {
        return dropped;
    }

    public List<Diagnostic> all() {
        return List.copyOf(items);
    }

    /** Throws a {@link CompileException} of the given kind if any error was reported. */
    public void throwIfErrors(ErrorKind kind) {
        if (hasErrors()) throw new CompileException(kind, this);
    }
}
