package dev.nunac.cli;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.Text;
import dev.nunac.diag.ErrorKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/**
 * The {@code nunac} command line: subcommands dispatched on the first argument, each with its
 * own options. Exit codes: 0 ok, 1 errors in the plan, 2 usage error, 3 input/IO error, 70
 * internal error, mapped from {@link ErrorKind} here alone. Help goes to stdout, errors to
 * stderr; no stack trace unless --verbose.
 */
public final class Cli {
    public static final int OK = 0;
    public static final int PLAN = 1;
    public static final int USAGE = 2;
    public static final int INPUT = 3;
    public static final int INTERNAL = 70;

    private final Io io;
    private final Map<String, Command> commands = new LinkedHashMap<>();
    /** The command being run, once dispatch has found it: its help is what a usage error points to. */
    private String current;

    public Cli(Io io) {
        this.io = io;
        for (Command c : List.of(new CompileCommand(), new CheckCommand(), new IrCommand(), new ExportCommand(),
                new TopoCommand(), new RunCommand(), new SimulateCommand(), new CompareCommand(), new SweepCommand(),
                new E2eCommand())) {
            commands.put(c.name(), c);
        }
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
        Command c = commands.get(first);
        String[] rest;
        if (c == null) {
            if (first.startsWith("-") || !looksLikePath(first)) {
                throw new UsageException(null, "unknown command '" + first + "'");
            }
            c = commands.get(CompileCommand.NAME);
            rest = args;
        } else {
            rest = Arrays.copyOfRange(args, 1, args.length);
        }
        current = c.name();
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) return help(c.name());
        CommandLine cl;
        try {
            cl = DefaultParser.builder().get().parse(c.options(), rest);
        } catch (ParseException e) {
            throw new UsageException(c.name(), e.getMessage());
        }
        return c.run(cl, io);
    }

    private static boolean looksLikePath(String s) {
        return s.contains(".") || s.contains("/");
    }

    private int help(String name) {
        Command c = commands.get(name);
        if (c == null) throw new UsageException(null, "no help for unknown command '" + name + "'");
        HelpFormatter f = HelpFormatter.builder().setPrintWriter(new PrintWriter(io.out(), true)).get();
        try {
            f.printHelp("nunac " + c.usage(), c.summary(), c.options(), "", false);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
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
        for (Command c : commands.values()) out.printf(java.util.Locale.ROOT, "  %-10s %s%n", c.name(), c.summary());
        out.printf(java.util.Locale.ROOT, "  %-10s %s%n", "help", "show help for a command: nunac help COMMAND");
        out.println();
        out.println("global options: --help, --version, --verbose");
        out.println("exit codes: 0 ok, 1 errors in the plan, 2 usage error, 3 input/IO error, 4 runtime error (run), 70 internal error");
    }

    static String version() {
        return dev.nunac.driver.Version.current();
    }

    List<String> commandNames() {
        return new ArrayList<>(commands.keySet());
    }
}
