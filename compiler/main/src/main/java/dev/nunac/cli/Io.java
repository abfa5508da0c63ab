package dev.nunac.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.util.function.Supplier;

/**
 * The streams a command writes to; injected so tests can run the CLI in-process.
 * {@code outFailure} says why a write to {@code out} failed, or null: a PrintStream keeps only
 * a flag ({@link PrintStream#checkError}).
 */
public record Io(PrintStream out, PrintStream err, Supplier<String> outFailure) {
    public Io(PrintStream out, PrintStream err) {
        this(out, err, () -> null);
    }

    /** The process's streams, standard output made as the JDK makes it, but remembering its failure. */
    static Io system() {
        FailureRecorder sink = new FailureRecorder(new FileOutputStream(FileDescriptor.out));
        BufferedOutputStream buffered = new BufferedOutputStream(sink, 8192);
        String enc = System.getProperty("sun.stdout.encoding");
        PrintStream out = null;
        if (enc != null) {
            try {
                out = new PrintStream(buffered, true, enc);
            } catch (UnsupportedEncodingException e) {
                // as the JDK does: fall back to the default charset
            }
        }
        if (out == null) out = new PrintStream(buffered, true);
        return new Io(out, System.err, sink::failure);
    }
}
