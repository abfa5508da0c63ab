package dev.nunac.ir;

import java.util.Optional;

/** NCCL/MSCCL wire protocol: decides how many bytes of a transfer are payload. */
public enum Protocol {
    SIMPLE("Simple"),
    LL("LL"),
    LL128("LL128");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<Protocol> parse(String s) {
        for (Protocol p : values()) if (p.id.equalsIgnoreCase(s)) return Optional.of(p);
        return Optional.empty();
    }
}
