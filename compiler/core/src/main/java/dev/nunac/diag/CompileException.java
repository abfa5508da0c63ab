package dev.nunac.diag;

import java.util.List;

/**
 * A failure the user can fix: carries the diagnostics and the kind that picks the exit code.
 * Never printed with a stack trace.
 */
public final class CompileException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ErrorKind kind;
    private final transient List<Diagnostic> diagnostics;
    private final int dropped;

    public CompileException(ErrorKind kind, Diagnostics diags) {
        super(summary(diags.all()), null, false, false);
        this.kind = kind;
        this.diagnostics = diags.all();
        this.dropped = diags.dropped();
    }

    public CompileException(ErrorKind kind, SourcePos pos, String message) {
        this(kind, single(pos, message));
    }

    private static Diagnostics single(SourcePos pos, String message) {
        Diagnostics d = new Diagnostics();
        d.error(pos, message);
        return d;
    }

    private static String summary(List<Diagnostic> ds) {
        return ds.isEmpty() ? "error" : ds.get(0).format();
    }

    public ErrorKind kind() {
        return kind;
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** Errors that were reported but not kept because of the diagnostics limit. */
    public int dropped() {
        return dropped;
    }
}
