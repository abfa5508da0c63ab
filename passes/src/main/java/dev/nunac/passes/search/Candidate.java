package dev.nunac.passes.search;

import dev.nunac.passes.place.Policy;

/**
 * One point of the search space: a policy at a NAR granularity (1: hashed over all ports; 0: none
 * applies, on a direct topology where the peer fixes the port). The balanced policy assigns domains by load ({@code byAddress} 0), or in the
 * order of the chunks its threadblocks store to, over the first {@code byAddress} domains (a
 * contiguous run of ports: on a chip with ports on two edges, half the domains keep every
 * neighbouring pair of chunks on one edge). A {@code spread} balanced candidate gives each
 * threadblock the CU whose injection would pass its flits soonest instead of the nearest CU with
 * window left ({@code Placer}). Any balanced candidate may be refined by {@link Refinement}.
 */
public record Candidate(Policy policy, int granularity, int byAddress, boolean refined, boolean spread) {
    public Candidate(Policy policy, int granularity) {
        this(policy, granularity, 0, false, false);
    }

    public Candidate(Policy policy, int granularity, int byAddress, boolean refined) {
        this(policy, granularity, byAddress, refined, false);
    }

    /** {@code ua}, {@code nap+nar k=4}, {@code balanced k=4 by address over 2, spread, refined}. */
    public String id() {
        String k = policy.nar && granularity > 0 ? " k=" + granularity : "";
        String how = byAddress == 0 ? "" : byAddress == granularity ? " by address" : " by address over " + byAddress;
        String tail = (spread ? ", spread" : "") + (refined ? ", refined" : "");
        if (how.isEmpty() && !tail.isEmpty()) tail = " " + tail.substring(2);
        return policy.id() + k + how + tail;
    }

    /** The same candidate with its threadblocks spread over CUs by injection. */
    Candidate spreadTwin() {
        return new Candidate(policy, granularity, byAddress, refined, true);
    }
}
