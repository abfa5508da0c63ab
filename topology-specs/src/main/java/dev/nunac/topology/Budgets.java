package dev.nunac.topology;

/**
 * Resource limits that placement charges: per-CU outstanding requests, per-stack in-flight bytes,
 * page size, and (optional, null when the spec gives none) how many threadblocks a CU holds at
 * once.
 */
public record Budgets(Quantity outstandingPerCu, Quantity inFlightBytesPerStack, Quantity pageBytes,
                      Quantity threadblocksPerCu) {
    public long pageSize() {
        return pageBytes.asLong();
    }

    /** Threadblocks one CU may hold; unlimited when the spec does not say. */
    public long threadblockSlots() {
        return threadblocksPerCu == null ? Long.MAX_VALUE : threadblocksPerCu.asLong();
    }
}
