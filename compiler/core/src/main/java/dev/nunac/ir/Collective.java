package dev.nunac.ir;

import java.util.Locale;
import java.util.Optional;

/** The collective a plan implements; decides buffer shapes and the checker's postcondition. */
public enum Collective {
    ALLGATHER("allgather"),
    ALLREDUCE("allreduce"),
    REDUCESCATTER("reducescatter"),
    ALLTOALL("alltoall"),
    BROADCAST("broadcast"),
    REDUCE("reduce"),
    CUSTOM("custom");

    private final String id;

    Collective(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Accepts both MSCCL spellings of reduce-scatter ({@code reduce_scatter}, {@code reducescatter}). */
    public static Optional<Collective> parse(String s) {
        String k = s.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        for (Collective c : values()) if (c.id.equals(k)) return Optional.of(c);
        return Optional.empty();
    }

    /** Input buffer size in chunks for {@code ranks} ranks and chunk factor {@code cf}. */
    public int inputChunks(int ranks, int cf) {
        return switch (this) {
            case REDUCESCATTER, ALLTOALL -> ranks * cf;
            default -> cf;
        };
    }

    /** Output buffer size in chunks. */
    public int outputChunks(int ranks, int cf) {
        return switch (this) {
            case ALLGATHER, ALLTOALL -> ranks * cf;
            default -> cf;
        };
    }
}
