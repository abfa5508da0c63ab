package dev.nunac.passes.search;

import dev.nunac.passes.place.Policy;

/**
 * One point of the search space: a policy at a NAR granularity (1: hashed over all ports; 0: none
 * applies, on a direct topology where the peer fixes the port). The balanced policy assigns domains by load ({@code byAddress} 0), or in the
 * order of the chunks its threadblocks store to, over the first {@code byAddress} domains (a
 * contiguous run of ports: on a chip with ports on two edges, half the domains keep every
 * neighbouring pair of chunks on one edge). Any balanced candidate may be refined by
 * {@link Refinement}.
 */
public record Candidate(Policy policy, int granularity, int byAddress, boolean refined) {
    public Candidate(Policy policy, int granularity) {
        this(policy, granularity, 0, false);
    }

    /** {@code ua}, {@code nap+nar k=4}, {@code balanced k=4 by address over 2, refined}. */
    public String id() {
        String k = policy.nar && granularity > 0 ? " k=" + granularity : "";
        String how = byAddress == 0 ? "" : byAddress == granularity ? " by address" : " by address over " + byAddress;
        return policy.id() + k + how + (refined ? (how.isEmpty() ? " refined" : ", refined") : "");
    }
}
