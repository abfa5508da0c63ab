package dev.nunac.topology;

/** A compute unit (CU/SM): its router, its die and the bit that selects it in a vendor CU mask. */
public record ComputeUnit(int index, int router, int die, int maskBit) {}
