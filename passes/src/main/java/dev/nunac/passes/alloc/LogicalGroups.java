package dev.nunac.passes.alloc;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import dev.nunac.passes.access.Accesses;
import java.util.List;

/** Product of {@link LogicalAllocation}: groups by decreasing size, and each threadblock's group. */
public record LogicalGroups(List<LogicalGroup> groups, int[] groupOfTb) implements Product {
    public static final Key<LogicalGroups> KEY = Key.of("logical-allocation", LogicalGroups.class);

    @Override
    public void verify(Compilation c, Diagnostics d) {
        int tbs = c.get(Accesses.KEY).threadblocks().size();
        int[] seen = new int[tbs];
        for (LogicalGroup g : groups) for (int m : g.members()) seen[m]++;
        for (int i = 0; i < tbs; i++) {
            if (seen[i] != 1) {
                d.error(c.plan().pos(), "threadblock #" + i + " is in " + seen[i] + " logical groups, expected 1");
                return;
            }
        }
        for (int i = 1; i < groups.size(); i++) {
            if (groups.get(i - 1).size() < groups.get(i).size()) {
                d.error(c.plan().pos(), "logical groups are not sorted by decreasing size");
                return;
            }
        }
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder();
        for (LogicalGroup g : groups) {
            sb.append("group ").append(g.id()).append(" threadblocks ").append(g.size()).append(" chunks ")
                    .append(g.chunks().length).append('\n');
        }
        return sb.toString();
    }
}
