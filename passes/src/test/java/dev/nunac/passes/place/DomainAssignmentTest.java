package dev.nunac.passes.place;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.passes.Fixtures;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroup;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.testkit.PlanBuilder;
import dev.nunac.testkit.Topologies;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which NAR domain each logical group's traffic goes through. */
class DomainAssignmentTest {
    static LogicalGroups groups(List<List<Integer>> members, int threadblocks) {
        int[] of = new int[threadblocks];
        List<LogicalGroup> gs = new java.util.ArrayList<>();
        for (int g = 0; g < members.size(); g++) {
            gs.add(new LogicalGroup(g, members.get(g), new int[0]));
            for (int m : members.get(g)) of[m] = g;
        }
        return new LogicalGroups(gs, of);
    }

    @Test
    void roundRobinStartsAtDomainOneAndWraps() {
        // Algorithm 1, line 12: nar = (nar + 1) mod k before each group, from 0
        LogicalGroups g = groups(List.of(List.of(0, 4), List.of(1), List.of(2), List.of(3)), 5);
        assertArrayEquals(new int[] {1, 2, 0, 1, 1}, DomainAssignment.roundRobin(g, 3, 5));
    }

    @Test
    void hashingAssignsNoDomain() {
        LogicalGroups g = groups(List.of(List.of(0, 1)), 2);
        assertArrayEquals(new int[] {-1, -1}, DomainAssignment.roundRobin(g, 1, 2));
    }

    @Test
    void balancingGivesARanksEqualGroupsDistinctDomains() {
        // four ranks, one balanced group per transfer (three per rank, equal loads), four domains
        PlacementInput in = Fixtures.input(PlanBuilder.directAllgather(4), Topologies.nuna4die(), 1 << 20);
        int[] domain = DomainAssignment.balanced(in, LogicalAllocation.allocate(in.accesses(), false), 4);
        List<TbAccess> tbs = in.accesses().threadblocks();
        for (int r = 0; r < 4; r++) {
            Set<Integer> used = new HashSet<>();
            for (int t = 0; t < tbs.size(); t++) if (tbs.get(t).rank() == r) used.add(domain[t]);
            assertEquals(3, used.size(), "rank " + r + " spreads its three threadblocks over three domains");
        }
    }
}
