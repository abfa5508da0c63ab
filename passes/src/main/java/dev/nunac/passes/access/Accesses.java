package dev.nunac.passes.access;

import dev.nunac.ir.ChunkSpace;
import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import java.util.List;

/**
 * Product of {@link AccessAnalysis}: the chunk space, one entry per threadblock in plan order,
 * and per chunk id whether it is a shared read-only source (read by two or more threadblocks,
 * written by none).
 */
public record Accesses(ChunkSpace space, List<TbAccess> threadblocks, boolean[] sharedReadOnly) implements Product {
    public static final Key<Accesses> KEY = Key.of("access-analysis", Accesses.class);

    @Override
    public void verify(Compilation c, Diagnostics d) {
        if (threadblocks.size() != c.plan().threadblockCount()) {
            d.error(c.plan().pos(), "access analysis covers " + threadblocks.size() + " of "
                    + c.plan().threadblockCount() + " threadblocks");
        }
        for (TbAccess t : threadblocks) {
            for (int i = 1; i < t.chunks().length; i++) {
                if (t.chunks()[i - 1] >= t.chunks()[i]) {
                    d.error(c.plan().pos(), "access set of r" + t.rank() + " tb" + t.tb() + " is not sorted and unique");
                    return;
                }
            }
        }
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder();
        for (TbAccess t : threadblocks) {
            sb.append("r").append(t.rank()).append(" tb").append(t.tb()).append(" peer ").append(t.peer())
                    .append(" moved ").append(t.moved()).append(" local");
            for (int id : t.local()) sb.append(' ').append(space.describe(id));
            sb.append(" remote");
            for (int id : t.remote()) sb.append(' ').append(space.describe(id));
            sb.append('\n');
        }
        return sb.toString();
    }
}
