package dev.nunac.diag;

/** A position in an input file; line and column are 1-based, 0 when unknown. */
public record SourcePos(String file, int line, int col) {
    public static final SourcePos NONE = new SourcePos("", 0, 0);

    public static SourcePos of(String file) {
        return new SourcePos(file, 0, 0);
    }

    public boolean known() {
        return line > 0;
    }

    /** {@code file:line:col}, or as much of it as is known. */
    @Override
    public String toString() {
        if (file.isEmpty() && line == 0) return "<unknown>";
        if (line == 0) return file;
        return file + ":" + line + ":" + col;
    }
}
