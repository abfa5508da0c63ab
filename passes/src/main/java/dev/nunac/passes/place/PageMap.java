package dev.nunac.passes.place;

/**
 * Where the pages of one storage buffer of a rank live: {@code stack[p]} the HBM stack of page
 * p, {@code domain[p]} its NAR domain within the granularity's address segment (-1: the
 * hashed segment).
 */
public record PageMap(int rank, String buffer, int[] stack, int[] domain) {}
