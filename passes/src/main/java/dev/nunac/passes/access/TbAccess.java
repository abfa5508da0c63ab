package dev.nunac.passes.access;

/**
 * What one threadblock touches: the paper's (gpu, tb, C_tb). Chunk ids are {@link dev.nunac.ir.ChunkSpace}
 * ids, sorted and unique. {@code local} are chunks on the threadblock's own rank, {@code remote}
 * on other ranks (a send's or put's destination, a get's source). {@code moved} counts the
 * chunks its steps move (the basis of its request demand); {@code peer} is the rank it mainly
 * talks to (send peer, else the first one-sided peer, else recv peer; -1 if none). {@code moves}
 * leaves out the chunks it only receives into (a receive waits while its sender's stores land):
 * the chunks whose movement it does itself.
 */
public record TbAccess(int rank, int tb, int[] chunks, int[] local, int[] remote, long moved, int peer, int[] moves) {}
