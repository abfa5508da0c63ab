package dev.nunac.topology;

/**
 * An off-chip I/O port. {@code plane} is its ordinal among the scale-up ports (the switch plane
 * under {@code clos}; the NAR port index), -1 for host and NIC ports.
 */
public record Port(int index, String id, PortKind kind, int router, int die, int plane, double bandwidthGBs) {}
