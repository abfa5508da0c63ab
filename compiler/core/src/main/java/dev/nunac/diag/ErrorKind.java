package dev.nunac.diag;

/**
 * What went wrong. The command line turns each kind into its exit code, in one place
 * ({@code dev.nunac.cli.Cli#exitCode}); a program that calls the compiler chooses its own.
 */
public enum ErrorKind {
    /** The plan (DSL, XML or JSON content) is wrong. */
    PLAN,
    /** The command line (or an option given through the API) is wrong. */
    USAGE,
    /** An input cannot be read or is not a valid document (topology, file system). */
    INPUT;
}
