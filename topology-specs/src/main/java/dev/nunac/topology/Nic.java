package dev.nunac.topology;

/** A scale-out NIC reached through port {@code port} at PCIe distance {@code distance}. */
public record Nic(String id, int port, PcieDistance distance, double bandwidthGBs) {}
