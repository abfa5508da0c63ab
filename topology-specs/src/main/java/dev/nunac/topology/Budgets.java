package dev.nunac.topology;

/** Resource limits that placement charges: per-CU outstanding requests, per-stack in-flight bytes, page size. */
public record Budgets(Quantity outstandingPerCu, Quantity inFlightBytesPerStack, Quantity pageBytes) {
    public long pageSize() {
        return pageBytes.asLong();
    }
}
