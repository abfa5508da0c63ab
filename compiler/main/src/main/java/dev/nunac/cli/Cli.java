package dev.nunac.cli;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.Text;
import dev.nunac.diag.ErrorKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code nunac} command line: subcommands dispatched on the first argument (a plan file
 * there is {@code compile}), each a picocli {@code @Command} ({@link CommandParser}). Exit
 * codes: 0 ok, 1 errors in the plan, 2 usage error, 3 input/IO error, 70 internal error, mapped
 * from {@link ErrorKind} here alone. Help goes to stdout, errors to stderr; no stack trace
 * unless --verbose.
 */
public final class Cli {
    public static final int OK = 0;
    public static final int PLAN = 1;
    public static final int USAGE = 2;
    public static final int INPUT = 3;
    public static final int INTERNAL = 70;

    /** The commands, in the overview's order; each is its class's {@code @Command} name (CommandParsingTest holds them together). */
    static final List<String> COMMANDS = List.of(CompileCommand.NAME, "check", "ir", "export", TopoCommand.NAME, RunCommand.NAME,
            SimulateCommand.NAME, CompareCommand.NAME, SweepCommand.NAME, E2eCommand.NAME);

    /**
     * The command of that name, or null. Made only when run: loading a command's class (and
     * picocli's reading of its annotations) costs start-up time that no other command should pay.
     */
    static Command command(String name) {
        return switch (name) {
            case CompileCommand.NAME -> new CompileCommand();
            case "check" -> new CheckCommand();
            case "ir" -> new IrCommand();
            case "export" -> new ExportCommand();
            case TopoCommand.NAME -> new TopoCommand();
            case RunCommand.NAME -> new RunCommand();
            case SimulateCommand.NAME -> new SimulateCommand();
            case CompareCommand.NAME -> new CompareCommand();
            case SweepCommand.NAME -> new SweepCommand();
            case E2eCommand.NAME -> new E2eCommand();
            default -> null;
        };
    }

    private final Io io;
    /** The command being run, once dispatch has found it: its help is what a usage error points to. */
    private String current;

    public Cli(Io io) {
        this.io = io;
    }

    public int run(String... args) {
        int code = report(args);
        // A PrintStream swallows write errors: a full disk or a closed pipe would pass for success.
        if (io.out().checkError()) {
            String why = io.outFailure().get();
            io.err().println("nunac: error: cannot write to standard output" + (why == null ? "" : ": " + why));
            if (code == OK) code = INPUT;
        }
        return code;
    }

    private int report(String... args) {
        boolean verbose = Arrays.asList(args).contains("--verbose");
        try {
            return dispatch(args);
        } catch (UsageException e) {
            String command = e.command != null ? e.command : current;
            io.err().println(Text.line("nunac" + (command == null ? "" : " " + command) + ": " + e.getMessage()));
            tryHelp(command);
            return USAGE;
        } catch (CompileException e) {
            for (Diagnostic d : e.diagnostics()) io.err().println(Text.line(d.format()));
            if (e.dropped() > 0) io.err().println("nunac: " + e.dropped() + " more errors not shown");
            // A usage error found past the option parser (a bad -D, --tune, --topo) ends like any other (errors.md).
            if (e.kind() == ErrorKind.USAGE) tryHelp(current);
            return exitCode(e.kind());
        } catch (OutOfMemoryError e) {
            // Under the default limits every input fits the heap, so running out is a bug; with a
            // limit raised it is what the user asked for, and the way out is theirs to choose.
            if (Arrays.stream(args).noneMatch(a -> a.startsWith("--limit"))) return internal(e, verbose);
            io.err().println("nunac: error: out of memory: with the limits raised by --limit, this run needs more than the "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB of heap the JVM has; lower the limits or the size,"
                    + " or give the JVM more (NUNAC_JAVA_OPTS=-Xmx...)");
            return exitCode(ErrorKind.PLAN);
        } catch (RuntimeException | StackOverflowError e) {
            return internal(e, verbose);
        }
    }

    /** The one place that turns what went wrong into the documented exit code (docs/errors.md). */
    static int exitCode(ErrorKind kind) {
        return switch (kind) {
            case PLAN -> PLAN;
            case USAGE -> USAGE;
            case INPUT -> INPUT;
        };
    }

    private int internal(Throwable e, boolean verbose) {
        io.err().println("nunac: internal error: " + e + ". This is a bug in nunac; please report it with the"
                + " command line and input files" + (verbose ? "." : " (run with --verbose for details)."));
        if (verbose) {
            StringWriter sw = new StringWriter();
            e.printStackTrace(new PrintWriter(sw));
            io.err().print(sw);
        }
        return INTERNAL;
    }

    private void tryHelp(String command) {
        io.err().println("Try 'nunac help" + (command == null ? "" : " " + command) + "'.");
    }

    private int dispatch(String[] args) {
        if (args.length == 0) {
            printOverview();
            return USAGE;
        }
        String first = args[0];
        switch (first) {
            case "--help", "-h", "help" -> {
                if (first.equals("help") && args.length > 1) return help(args[1]);
                printOverview();
                return OK;
            }
            case "--version", "-V", "version" -> {
                io.out().println("nunac " + version());
                return OK;
            }
            default -> { }
        }
        Command c = command(first);
        String[] rest;
        if (c == null) {
            if (first.startsWith("-") || !looksLikePath(first)) {
                throw new UsageException(null, "unknown command '" + first + "'");
            }
            c = new CompileCommand();
            rest = args;
        } else {
            rest = Arrays.copyOfRange(args, 1, args.length);
        }
        current = CommandParser.name(c);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) return help(current);
        CommandParser.parse(c, rest, current);
        return c.run(io);
    }

    private static boolean looksLikePath(String s) {
        return s.contains(".") || s.contains("/");
    }

    private int help(String name) {
        Command c = command(name);
        if (c == null) throw new UsageException(null, "no help for unknown command '" + name + "'");
        io.out().print(CommandParser.usage(c));
        io.out().flush();
        return OK;
    }

    private void printOverview() {
        var out = io.out();
        out.println("nunac " + version() + " - NUNA-aware collective plan compiler");
        out.println();
        out.println("usage: nunac PLAN --topo TOPOLOGY [options]    compile a plan (see 'nunac help compile')");
        out.println("       nunac COMMAND [options] [args]");
        out.println();
        out.println("commands:");
        for (String name : COMMANDS) out.printf(java.util.Locale.ROOT, "  %-10s %s%n", name, CommandParser.summary(command(name)));
        out.printf(java.util.Locale.ROOT, "  %-10s %s%n", "help", "show help for a command: nunac help COMMAND");
        out.println();
        out.println("global options: --help, --version, --verbose");
        out.println("exit codes: 0 ok, 1 errors in the plan, 2 usage error, 3 input/IO error, 4 runtime error (run), 70 internal error");
    }

    static String version() {
        return dev.nunac.driver.Version.current();
    }

    List<String> commandNames() {
        return COMMANDS;
    }
}
