package dev.nunac.diag;

/** One message about the input, printed as {@code path:line:col: error: message}. */
public record Diagnostic(SourcePos pos, Severity severity, String message) {
    public static Diagnostic error(SourcePos pos, String message) {
        return new Diagnostic(pos, Severity.ERROR, message);
    }

    public static Diagnostic warning(SourcePos pos, String message) {
        return new Diagnostic(pos, Severity.WARNING, message);
    }

    public String format() {
        String where = pos.toString();
        return (pos == SourcePos.NONE ? "nunac" : where) + ": " + severity.label() + ": " + message;
    }

    @Override
    public String toString() {
        return format();
    }
}
