package dev.nunac.cli;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;

/** A subcommand of {@code nunac}: its options, help text and action. */
interface Command {
    String name();

    /** One line for {@code nunac help}. */
    String summary();

    /** The usage line after "nunac", e.g. {@code check PLAN [-D k=v]...}. */
    String usage();

    Options options();

    /** Runs the command; returns the exit code. User errors are thrown as CompileException. */
    int run(CommandLine cl, Io io);
}
