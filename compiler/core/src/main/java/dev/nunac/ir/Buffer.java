package dev.nunac.ir;

import java.util.Objects;

/**
 * A per-rank buffer. {@code input} and {@code output} are the collective's buffers; any other
 * name is a scratch buffer. Sizes are in chunks.
 */
public record Buffer(String name, BufferKind kind, int chunks) {
    public static final String INPUT = "input";
    public static final String OUTPUT = "output";
    public static final String SCRATCH = "scratch";

    public Buffer {
        Objects.requireNonNull(name);
        Objects.requireNonNull(kind);
        if (chunks < 0) throw new IllegalArgumentException("negative buffer size");
    }

    public static BufferKind kindOf(String name) {
        return switch (name) {
            case INPUT -> BufferKind.INPUT;
            case OUTPUT -> BufferKind.OUTPUT;
            default -> BufferKind.SCRATCH;
        };
    }
}
