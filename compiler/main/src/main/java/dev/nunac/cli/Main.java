package dev.nunac.cli;

/** Entry point of the {@code nunac} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(new Cli(new Io(System.out, System.err)).run(args));
    }
}
