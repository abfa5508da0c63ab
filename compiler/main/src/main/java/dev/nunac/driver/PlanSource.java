package dev.nunac.driver;

import dev.nunac.ir.Limits;

/**
 * The bytes of a plan file as read, with the limits it was read under: for outputs that rewrite
 * the file itself rather than export the IR (the placed MSCCL++ JSON keeps every member the
 * executor reads, most of which the IR does not hold).
 */
public record PlanSource(String file, byte[] bytes, Limits limits) {
    public PlanSource {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }
}
