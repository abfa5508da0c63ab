package dev.nunac.runtime;

/** Where the runtime places one threadblock: its CU, its die, its grid slot and its NAR domain (-1: hashed). */
public record TbPlacement(int cu, int die, int slot, int domain) {}
