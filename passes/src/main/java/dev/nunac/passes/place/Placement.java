package dev.nunac.passes.place;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.topology.Topology;
import java.util.List;
import java.util.Locale;

/**
 * The result of {@link Placer}: M_compute (threadblock → CU) and M_memory (page →
 * stack), indexed like {@link Accesses#threadblocks()} (plan order) and the chunk space's
 * storages. {@code domainOfTb} is the NAR domain (or, on direct topologies, the plane of the
 * port to the peer; -1 when the traffic is hashed).
 *
 * <p>The arrays ({@code cuOfTb}, {@code domainOfTb}, {@code groupOfTb}, indexed by the global
 * threadblock index of {@link dev.nunac.ir.TbNumbering}, and each {@link PageMap}'s) are owned
 * by the placement: {@link Placer} fills fresh ones, hands them over here and keeps no
 * reference, and nothing writes them afterwards; a pass that wants a variant clones them (as the
 * search's refinement does with the domains). They stay bare arrays, not copies or views,
 * because the cost models read them per step. Tests check that realisation, the cost models
 * ({@code PlacementArraysTest}) and every output ({@code PlacementOwnershipTest}) leave them as
 * they were.
 */
public record Placement(Policy policy, int granularity, boolean direct, long chunkBytes, long pageBytes,
                        int[] cuOfTb, int[] domainOfTb, int[] groupOfTb, List<PageMap> pages,
                        PlacementStats stats) implements Product {
    public static final Key<Placement> KEY = Key.of("placement", Placement.class);

    @Override
    public void verify(Compilation c, Diagnostics d) {
        Topology topo = c.get(TopologyInput.KEY);
        List<TbAccess> tbs = c.get(Accesses.KEY).threadblocks();
        if (cuOfTb.length != tbs.size()) {
            d.error(c.plan().pos(), "placement covers " + cuOfTb.length + " of " + tbs.size() + " threadblocks");
            return;
        }
        for (int i = 0; i < cuOfTb.length; i++) {
            if (cuOfTb[i] < 0 || cuOfTb[i] >= topo.cus().size()) {
                d.error(c.plan().pos(), "threadblock #" + i + " placed on CU " + cuOfTb[i] + ", which does not exist");
                return;
            }
        }
        for (PageMap pm : pages) {
            for (int s : pm.stack()) {
                if (s < 0 || s >= topo.stacks().size()) {
                    d.error(c.plan().pos(), "a page of r" + pm.rank() + ":" + pm.buffer() + " is on stack " + s
                            + ", which does not exist");
                    return;
                }
            }
        }
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "policy %s granularity %d chunk %d B%n", policy.id(), granularity, chunkBytes));
        for (int i = 0; i < cuOfTb.length; i++) {
            sb.append("tb#").append(i).append(" cu ").append(cuOfTb[i]).append(" domain ").append(domainOfTb[i])
                    .append(" group ").append(groupOfTb[i]).append('\n');
        }
        for (PageMap pm : pages) {
            sb.append("r").append(pm.rank()).append(':').append(pm.buffer()).append(" pages");
            for (int s : pm.stack()) sb.append(' ').append(s);
            sb.append('\n');
        }
        return sb.toString();
    }
}
