package dev.nunac.cli;

/**
 * A subcommand of {@code nunac}: a picocli {@code @Command} whose name, summary (its first
 * description line) and options are its annotations; picocli fills the fields, then {@link #run}.
 */
interface Command {
    /** Runs the command; returns the exit code. User errors are thrown as CompileException or UsageException. */
    int run(Io io);
}
