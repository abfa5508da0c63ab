package dev.nunac.topology;

/** PCIe distance between a NIC and the GPU, in NCCL's classes, nearest first. */
public enum PcieDistance {
    /** Same PCIe switch. */
    PIX,
    /** Several PCIe switches, no host bridge. */
    PXB,
    /** Through the CPU's host bridge. */
    PHB,
    /** Across the CPU interconnect (another socket). */
    SYS
}
