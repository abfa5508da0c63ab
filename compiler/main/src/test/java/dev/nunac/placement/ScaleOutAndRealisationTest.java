package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.Nunac;
import dev.nunac.diag.CompileException;
import dev.nunac.driver.CompileResult;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.ComputeUnit;
import dev.nunac.topology.Nic;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleOutAndRealisationTest {
    static String example(String n) throws Exception {
        return Files.readString(dev.nunac.testing.TestPaths.examples().resolve(n + ".msccl"));
    }

    @Test
    void peersInAnotherBoxArePlacedNearTheNic() throws Exception {
        Topology topo = TopologyResolver.resolve("mi300x");
        assertTrue(topo.scaleOut().isPresent() && !topo.scaleOut().get().nics().isEmpty(), "mi300x describes NICs");
        CompileResult r = Nunac.compileSource("ag.msccl", example("allgather-direct"), Map.of("ranks", "16"), topo,
                PlacementOptions.defaults());
        int box = topo.scaleOut().get().gpusPerBox();
        int[] nics = topo.scaleOut().get().nics().stream().mapToInt(Nic::port).toArray();
        int checked = 0;
        for (int i = 0; i < r.accesses().threadblocks().size(); i++) {
            TbAccess t = r.accesses().threadblocks().get(i);
            if (t.peer() < 0 || t.peer() / box == t.rank() / box) continue;
            int cu = r.placement().cuOfTb()[i];
            int nearestToNic = topo.cusByDistance(nics)[0];
            assertEquals(topo.hopsToPorts(nearestToNic, nics), topo.hopsToPorts(cu, nics), "cross-box threadblock " + i);
            checked++;
        }
        assertTrue(checked > 0);
    }

    @Test
    void aTopologyWithoutNicsRejectsPlansLargerThanABox() throws Exception {
        Topology topo = TopologyResolver.resolve("mi250x");
        CompileException e = assertThrows(CompileException.class, () -> Nunac.compileSource("ag.msccl",
                example("allgather-direct"), Map.of("ranks", "16"), topo, PlacementOptions.defaults()));
        assertTrue(e.diagnostics().get(0).message().contains("describes no NIC ports"), e.getMessage());
    }

    @Test
    void mi300xGridSlotsLandOnTheirXcdAndStreamsNeverEmptyAnXcd() throws Exception {
        Topology topo = TopologyResolver.resolve("mi300x");
        for (Policy p : Policy.values()) {
            CompileResult r = Nunac.compileSource("ar.msccl", example("allreduce-allpairs"), Map.of("ranks", "8"), topo,
                    new PlacementOptions(p, PlacementOptions.NAR_DEFAULT, 1 << 20));
            int base = 0;
            for (Realised.RankLaunch rl : r.realised().ranks()) {
                for (int t = 0; t < rl.slotOfTb().length; t++) {
                    int cu = r.placement().cuOfTb()[base + t];
                    assertEquals(topo.cus().get(cu).die(), topo.dispatch().dieOfBlock(rl.slotOfTb()[t]),
                            p.id() + ": block lands on its CU's XCD");
                }
                base += rl.slotOfTb().length;
                for (Realised.StreamMask s : rl.streams()) {
                    boolean[] seen = new boolean[topo.dies().size()];
                    for (ComputeUnit cu : topo.cus()) {
                        if ((s.mask()[cu.maskBit() / 32] & (1 << (cu.maskBit() % 32))) != 0) seen[cu.die()] = true;
                    }
                    for (ComputeUnit cu : topo.cus()) assertTrue(seen[cu.die()], p.id() + ": stream mask leaves die " + cu.die() + " empty");
                }
            }
        }
    }
}
