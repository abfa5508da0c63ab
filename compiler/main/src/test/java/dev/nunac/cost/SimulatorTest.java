package dev.nunac.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.passes.cost.SimConfig;
import dev.nunac.passes.cost.SimResult;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.Repo;
import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyResolver;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost model on hand-checkable cases: zero-load latency, queueing, determinism. */
class SimulatorTest {
    /**
     * A 4x1 mesh: two CUs on every router, one HBM stack at x=3, one scale-up port at x=0. Every
     * store's path is therefore fixed: CU -> west to the port -> switch -> east to the stack.
     */
    static Topology line() {
        return Topologies.line();
    }

    /** The same line with CUs only on the routers {@code cuRouters} selects. */
    static Topology line(String cuRouters) {
        return Topologies.line(cuRouters);
    }

    static Plan allgather(int ranks, int tbsPerPeer) {
        try {
            String text = Files.readString(Repo.root().resolve("examples/allgather-direct.msccl"));
            return DslFrontEnd.parse(new SourceText("allgather-direct.msccl", text),
                    Map.of("ranks", String.valueOf(ranks), "tbs_per_peer", String.valueOf(tbsPerPeer)), Limits.DEFAULT);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static CompileResult compile(Plan plan, Topology topo, Policy policy, long size) {
        return Driver.compile(plan, topo, new PlacementOptions(policy, PlacementOptions.NAR_AUTO, size), true, null, null);
    }

    /**
     * Hand sum along the fixed path of a store from a CU at column {@code x}. A router's injection
     * and ejection default to its links together: 256 GB/s at the ends of the line, 512 inside.
     */
    static double zeroLoad(int x) {
        double hop = 10 /* cycles at 1 GHz */ + 256 / 256.0 /* one flit on a 256 GB/s link */;
        double router = x == 0 || x == 3 ? 256 / 256.0 : 256 / 512.0;
        return 100 /* CU to NoC */ + router /* into the CU's router */ + x * hop + 256 / 256.0 /* out of x=0 to the port */
                + 256 / 25.6 /* port out */ + 400 /* switch */ + 256 / 25.6 /* port in */ + 256 / 256.0 /* into x=0 from the port */
                + 3 * hop /* port at x=0 to the stack at x=3 */ + 256 / 256.0 /* out of x=3 to the stack */
                + 256 / 128.0 /* stack */ + 50 /* memory access */;
    }

    /** 64 flits per store: 2 ranks, {@code tbs} threadblocks per peer, 16 KiB chunks. */
    static final int FLITS = 64;

    static SimResult burst(Topology topo, int tbs) {
        return Driver.simulate(compile(allgather(2, tbs), topo, Policy.UA, 2L * tbs * FLITS * 256), SimConfig.defaults());
    }

    @Test
    void aCuInjectsNoFasterThanItsInjectionBandwidth() {
        // 12.8 GB/s per CU, slower than the 25.6 GB/s port: each store's 64 flits leave its CU 20 ns apart
        Topology topo = Topologies.line("{\"die\": \"d\"}", 12.8, 0, 0);
        SimResult s = burst(topo, 1);
        double perFlit = 256 / 12.8;
        assertEquals(FLITS * perFlit, s.busiest("cu").busyNs(), 1e-6, "the CU passed every flit of its store once");
        assertTrue(s.completionNs() >= FLITS * perFlit + zeroLoad(0), "the burst takes at least flits x flit bytes / bandwidth: " + s.completionNs());
        SimResult free = burst(line(), 1);
        assertTrue(free.completionNs() < s.completionNs(), "without the limit the port (10 ns a flit) sets the pace: " + free.completionNs());
    }

    @Test
    void aRoutersInjectionIsSharedByItsEndpoints() {
        // Both CUs on x=0 store 64 flits each through that router, which also takes in the peer's 128 from the port.
        SimResult s = routerBinds("in", Topologies.line("{\"x\": 0, \"y\": 0}", 0, 12.8, 0));
        assertEquals(s.busiest("router-in").busyNs(), s.utilisation().get(0).busyNs(), 1e-6, "and it is the busiest server");
    }

    @Test
    void aRoutersEjectionIsSharedByItsEndpoints() {
        // x=0 hands 2 x 64 loaded flits to its CUs and the same 128 to the port; x=3 hands the stack the 128 received.
        SimResult s = routerBinds("out", Topologies.line("{\"x\": 0, \"y\": 0}", 0, 0, 12.8));
        double stackRouter = 0;
        for (var u : s.utilisation()) if (u.server().endsWith("router r3_0 out")) stackRouter = Math.max(stackRouter, u.busyNs());
        assertEquals(2 * FLITS * 256 / 12.8, stackRouter, 1e-6, "the stack's router delivered the rank's 128 received flits");
    }

    /**
     * Two CUs' burst on {@code topo}, whose x=0 router's {@code way} ("in" or "out") is its only
     * limit: that server passes 4 x 64 flits (the CUs' 2 x 64 and the port's) and sets the pace.
     */
    private static SimResult routerBinds(String way, Topology topo) {
        SimResult s = burst(topo, 2);
        var server = s.busiest("router-" + way);
        assertEquals("r0 router r0_0 " + way, server.server().replace("r1 ", "r0 "));
        assertEquals(4 * FLITS * 256 / 12.8, server.busyNs(), 1e-6, "2 x 64 flits of the CUs' and 2 x 64 of the port's");
        assertTrue(s.completionNs() >= 4 * FLITS * 256 / 12.8, "the router's " + way + " server binds: " + s.completionNs());
        return s;
    }

    @Test
    void aSingleStoreTakesTheSumOfTheLatenciesOnItsPath() {
        Topology topo = line();
        // 2 ranks, 512 B output: one 256 B chunk, one flit per store; the two stores never overlap.
        CompileResult r = compile(allgather(2, 1), topo, Policy.UA, 512);
        SimResult s = Driver.simulate(r, SimConfig.defaults());
        double[] expected = new double[2];
        for (int t = 0; t < 2; t++) expected[t] = zeroLoad(topo.routers().get(topo.cus().get(r.placement().cuOfTb()[t]).router()).x());
        Arrays.sort(expected);
        assertEquals(2, s.storeLatency().flits(), 1e-9);
        assertEquals(expected[0], s.storeLatency().minNs(), 1e-6);
        assertEquals(expected[1], s.storeLatency().maxNs(), 1e-6);
    }

    @Test
    void twoFlowsSharingALinkQueue() {
        // Both CUs on router x=0: two threadblocks load and store one flit each from time 0 on the same path.
        Topology topo = line("{\"x\": 0, \"y\": 0}");
        CompileResult r = compile(allgather(2, 2), topo, Policy.UA, 1024);
        SimResult s = Driver.simulate(r, SimConfig.defaults());
        int[] cus = r.placement().cuOfTb();
        double noQueue = Math.max(zeroLoad(topo.routers().get(topo.cus().get(cus[0]).router()).x()),
                zeroLoad(topo.routers().get(topo.cus().get(cus[1]).router()).x()));
        // The second flit waits one link service time behind the first, then stays behind it.
        assertEquals(noQueue, s.storeLatency().minNs(), 1e-6);
        assertTrue(s.storeLatency().maxNs() >= noQueue + 256 / 256.0 - 1e-6,
                "a store waits behind the other: max " + s.storeLatency().maxNs() + ", zero-load " + noQueue);
        assertEquals(2 * 256 / 25.6, s.busiest("port-out").busyNs(), 1e-6, "the port carried both flits of its rank");
    }

    /**
     * A send loads its chunk from the stack at x=3 into a CU at x=0 and stores it to the peer, whose
     * data arrives at x=0 and goes east to its stack. A load's request carries an address, not
     * data: eastward links carry only the one flit the rank receives, westward ones the loaded flit.
     */
    @Test
    void aLoadsRequestTakesNoLinkBandwidthItsDataDoes() {
        Topology topo = line("{\"x\": 0, \"y\": 0}");
        SimResult s = Driver.simulate(compile(allgather(2, 1), topo, Policy.UA, 512), SimConfig.defaults());
        java.util.Map<String, Double> busy = new java.util.HashMap<>();
        for (var u : s.utilisation()) busy.put(u.server(), u.busyNs());
        for (int x = 0; x < 3; x++) {
            String east = "r0 link r" + x + "_0->r" + (x + 1) + "_0", west = "r0 link r" + (x + 1) + "_0->r" + x + "_0";
            assertEquals(256 / 256.0, busy.getOrDefault(east, 0.0), 1e-9, east + " carries the received flit only");
            assertEquals(256 / 256.0, busy.getOrDefault(west, 0.0), 1e-9, west + " carries the loaded flit");
        }
    }

    @Test
    void sameInputsGiveTheSameResult() {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        Plan plan = allgather(4, 3);
        SimResult a = Driver.simulate(compile(plan, topo, Policy.UA, 1 << 20), SimConfig.defaults());
        SimResult b = Driver.simulate(compile(plan, topo, Policy.UA, 1 << 20), SimConfig.defaults());
        assertEquals(a.completionNs(), b.completionNs());
        assertEquals(a.storeLatency(), b.storeLatency());
        assertEquals(a.utilisation(), b.utilisation());
        assertEquals(a.threadblocks(), b.threadblocks());
        assertEquals(a.criticalPath(), b.criticalPath());
    }

    @Test
    void theSearchHandsOverThePlacementPlacingItsChoiceAgainWouldGive() {
        Topology topo = TopologyResolver.resolve("nuna-4die");
        Plan plan = allgather(8, 2);
        CompileResult auto = compile(plan, topo, Policy.NAP_NAR, 1 << 20);
        int k = auto.placement().granularity();
        CompileResult forced = Driver.compile(plan, topo, new PlacementOptions(Policy.NAP_NAR, k, 1 << 20), true, null, null);
        assertTrue(Arrays.equals(auto.placement().cuOfTb(), forced.placement().cuOfTb()), "k=" + k);
        assertEquals(auto.placement().pages().size(), forced.placement().pages().size());
        for (int i = 0; i < auto.placement().pages().size(); i++) {
            var a = auto.placement().pages().get(i);
            var f = forced.placement().pages().get(i);
            assertTrue(Arrays.equals(a.stack(), f.stack()) && Arrays.equals(a.domain(), f.domain()) && Arrays.equals(a.slot(), f.slot()),
                    "page map " + a.rank() + "/" + a.buffer());
        }
        assertEquals(auto.placement().stats(), forced.placement().stats());
        for (int i = 0; i < 3; i++) {
            assertEquals(estimates(auto), estimates(compile(plan, topo, Policy.NAP_NAR, 1 << 20)),
                    "candidates estimated side by side give the same times every run");
        }
    }

    static List<String> estimates(CompileResult r) {
        return r.search().candidates().stream().map(c -> c.candidate().id() + " " + c.analyticNs() + " "
                + (c.wasSimulated() ? c.simulated().ns() : Double.NaN)).toList();
    }
}
