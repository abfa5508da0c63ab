package dev.nunac.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * picocli, as the commands use it: it fills a command's annotated fields from the arguments and
 * writes its help from the same annotations. Kept apart from {@link Cli}, so that the runs that
 * parse nothing ({@code --version}, the overview) never load it.
 */
final class CommandParser {
    private CommandParser() {}

    /** Fills the command's options and arguments; a mistake is a usage error of {@code command}. */
    static void parse(Command c, String[] args, String command) {
        try {
            commandLine(c).parseArgs(args);
        } catch (ParameterException e) {
            throw new UsageException(command, message(e));
        }
    }

    /**
     * A command's parser: no @file expansion (a plan may be named so), long options in full (an
     * abbreviation that works today would turn ambiguous with the next option), and the options
     * every command takes, which {@link Cli} reads from the raw arguments (--help before parsing,
     * --verbose when reporting a failure), so no command declares them.
     */
    private static CommandLine commandLine(Command c) {
        CommandLine cl = new CommandLine(c);
        cl.setExpandAtFiles(false);
        var spec = cl.getCommandSpec();
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("show this help").build());
        spec.addOption(OptionSpec.builder("--verbose").description("show internal details of failures").build());
        return cl;
    }

    /** picocli's message, but an unknown option worded as docs/errors.md has it, and without the "Error: " some begin with. */
    private static String message(ParameterException e) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty() && u.getUnmatched().get(0).startsWith("-")) {
            return "Unrecognized option: " + u.getUnmatched().get(0);
        }
        String m = e.getMessage();
        return m.startsWith("Error: ") ? m.substring("Error: ".length()) : m;
    }

    /** A command's help: usage line, summary and options, all from its annotations. */
    static String usage(Command c) {
        CommandLine cl = commandLine(c);
        cl.setResourceBundle(new HelpValues());
        cl.setCommandName("nunac " + name(c));
        cl.getCommandSpec().usageMessage().synopsisHeading("usage: ");
        return cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The options of a command, as picocli reads them (for tests that hold help and docs to them). */
    static List<OptionSpec> options(Command c) {
        return commandLine(c).getCommandSpec().options();
    }

    /** A command's name, from its annotation. */
    static String name(Command c) {
        return annotation(c).name();
    }

    /** The first line of the command's description: its line in the overview. */
    static String summary(Command c) {
        return annotation(c).description()[0];
    }

    private static CommandLine.Command annotation(Command c) {
        return c.getClass().getAnnotation(CommandLine.Command.class);
    }
}
