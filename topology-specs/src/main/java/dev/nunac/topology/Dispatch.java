package dev.nunac.topology;

import java.util.List;

/**
 * How the hardware hands threadblocks to dies. {@code MODULO}: block b runs on die
 * {@code dies[b mod n]} whatever the CU mask (MI300X SPX); {@code ROUND_ROBIN}: the scheduler
 * spreads blocks over {@code dies} in order, preferring free CUs (the paper's baseline);
 * {@code ANY}: no fixed rule.
 */
public record Dispatch(Rule rule, List<Integer> dies) {
    public enum Rule {
        MODULO, ROUND_ROBIN, ANY;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public Dispatch {
        dies = List.copyOf(dies);
    }

    /** The die block {@code b} lands on under MODULO or ROUND_ROBIN; -1 under ANY. */
    public int dieOfBlock(long b) {
        if (rule == Rule.ANY || dies.isEmpty()) return -1;
        return dies.get((int) Math.floorMod(b, (long) dies.size()));
    }
}
