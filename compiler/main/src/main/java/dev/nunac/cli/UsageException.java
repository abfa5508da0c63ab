package dev.nunac.cli;

/** A command-line mistake: exit 2 with a one-line message and a pointer to help. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String command;

    UsageException(String command, String message) {
        super(message, null, false, false);
        this.command = command;
    }
}
