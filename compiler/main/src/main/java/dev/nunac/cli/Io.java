package dev.nunac.cli;

import java.io.PrintStream;

/** The streams a command writes to; injected so tests can run the CLI in-process. */
public record Io(PrintStream out, PrintStream err) {}
