package dev.nunac.diag;

/** What went wrong, which decides the command's exit code. */
public enum ErrorKind {
    /** The plan (DSL, XML or JSON content) is wrong: exit 1. */
    PLAN(1),
    /** The command line is wrong: exit 2. */
    USAGE(2),
    /** An input cannot be read or is not a valid document (topology, file system): exit 3. */
    INPUT(3);

    public final int exitCode;

    ErrorKind(int exitCode) {
        this.exitCode = exitCode;
    }
}
