package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.Nunac;
import dev.nunac.driver.CompileResult;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.passes.alloc.LogicalGroup;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The paper's Figure 7 by hand: a two-GPU all-gather with two chunks per GPU, each sent by its
 * own threadblock. Threadblock k of GPU 0 and threadblock k of GPU 1 touch the same chunks
 * (GPU 0 writes its chunk k into GPU 1's output, GPU 1 receives there), so logical allocation
 * makes two groups that span both GPUs; with two NAR domains each group gets one domain, its
 * threadblocks the CUs nearest that domain's ports, and the pages of its chunks the stacks
 * nearest those ports.
 */
class Figure7Test {
    static final String PLAN = """
            program "fig7" collective allgather(2, chunk_factor = 2, inplace = true) {
              for r in 0 .. 2 {
                for k in 0 .. 2 {
                  chunk(r, input, k).copy(1 - r, output, r * 2 + k, sendtb = k, recvtb = k, ch = k);
                }
              }
            }
            """;

    @Test
    void twoGroupsTwoDomainsNearestCusAndStacks() {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        CompileResult r = Nunac.compileSource("fig7.msccl", PLAN, Map.of(), topo,
                new PlacementOptions(Policy.NAP_NAR, 2, 64 * 1024));
        // Threadblocks in plan order: r0 tb0, r0 tb1, r1 tb0, r1 tb1.
        List<LogicalGroup> groups = r.groups().groups();
        assertEquals(2, groups.size());
        assertEquals(List.of(0, 2), groups.get(0).members());
        assertEquals(List.of(1, 3), groups.get(1).members());
        assertEquals(2, r.placement().granularity());
        // Algorithm 1, line 12: nar <- (nar + 1) mod nar_max before each group, from nar = 0
        assertArrayEquals(new int[] {1, 0, 1, 0}, r.placement().domainOfTb());

        // Each threadblock is on the first CU in order of distance to its domain's ports.
        for (int t = 0; t < 4; t++) {
            int domain = (t + 1) % 2;
            int[] ports = topo.narDomains(2).get(domain).ports();
            int expected = topo.cusByDistance(ports)[0];
            // both ranks place their first threadblock of the domain on the same nearest CU
            assertEquals(expected, r.placement().cuOfTb()[t], "threadblock " + t);
        }

        // Every page of GPU 1's output written by GPU 0's threadblock k sits on the stack nearest its domain's ports.
        ChunkSpace space = r.accesses().space();
        PageMap out1 = r.placement().pages().stream().filter(p -> p.rank() == 1 && p.buffer().equals("output")).findFirst().orElseThrow();
        long chunkBytes = r.placement().chunkBytes();
        for (int k = 0; k < 2; k++) {
            int d = (k + 1) % 2;
            int[] ports = topo.narDomains(2).get(d).ports();
            int nearest = nearestStack(topo, ports);
            int page = (int) ((long) k * chunkBytes / r.placement().pageBytes());
            assertEquals(nearest, out1.stack()[page], "GPU 1 output chunk " + k);
            assertEquals(d, out1.domain()[page]);
        }
        assertEquals(8, space.size()); // 2 GPUs x output of 4 chunks (input aliased)
        assertEquals(0, r.placement().stats().cuSpills() + r.placement().stats().stackSpills());
    }

    static int nearestStack(Topology topo, int[] ports) {
        int best = -1, bestHops = Integer.MAX_VALUE;
        for (int s = 0; s < topo.stacks().size(); s++) {
            int h = Integer.MAX_VALUE;
            for (int p : ports) h = Math.min(h, topo.hops(topo.stacks().get(s).router(), topo.ports().get(p).router()));
            if (h < bestHops) {
                bestHops = h;
                best = s;
            }
        }
        return best;
    }
}
