package dev.nunac.cli;

/** Entry point of the {@code nunac} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(new Cli(Io.system()).run(args));
    }
}
