package dev.nunac.testing;

import dev.nunac.cli.Cli;
import dev.nunac.cli.Io;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in-process and captures its exit code and streams. */
public record CliRun(int exit, String out, String err) {
    public static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = new Cli(new Io(o, e)).run(args);
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * The run was refused as bad input should be: exit {@code code}, every fragment in its
     * message, no stack trace, and nothing written to {@code out}.
     */
    public void assertRefused(int code, java.nio.file.Path out, String... fragments) {
        org.junit.jupiter.api.Assertions.assertEquals(code, exit, err);
        for (String f : fragments) org.junit.jupiter.api.Assertions.assertTrue(err.contains(f), err);
        org.junit.jupiter.api.Assertions.assertFalse(err.contains("Exception"), err);
        org.junit.jupiter.api.Assertions.assertFalse(java.nio.file.Files.exists(out), out + " was written");
    }
}
