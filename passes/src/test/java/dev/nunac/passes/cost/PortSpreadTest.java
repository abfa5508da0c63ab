package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testkit.Topologies;
import dev.nunac.topology.Port;
import dev.nunac.topology.Topology;
import org.junit.jupiter.api.Test;

/** Water-filling over ports: the least time one CU's flits need through them. */
class PortSpreadTest {
    @Test
    void oneFlitTakesTheNearestPort() {
        double t = PortSpread.waterFill(new double[] {30, 10, 20}, new double[] {1, 1, 1}, new Integer[] {1, 2, 0}, 1);
        assertEquals(10, t, 1e-12);
    }

    @Test
    void flitsSpillToFurtherPortsOnlyWhenTheNearOnesAreBusyLongEnough() {
        // 5 flits, 1 ns each: the port at 10 ns alone takes until 14; with the one at 12 open, 5 = (T-10+1) + (T-12+1) gives 12.5
        double t = PortSpread.waterFill(new double[] {10, 12, 100}, new double[] {1, 1, 1}, new Integer[] {0, 1, 2}, 5);
        assertEquals(12.5, t, 1e-12);
        // a thousand flits reach the far port too
        double many = PortSpread.waterFill(new double[] {10, 12, 100}, new double[] {1, 1, 1}, new Integer[] {0, 1, 2}, 1000);
        assertEquals((1000 - 3 + 122) / 3.0, many, 1e-9);
    }

    @Test
    void aTransferIsNeverFasterThanItsFlitsThroughEveryPortAtOnce() {
        Topology topo = Topologies.nuna4die();
        int[] ports = topo.scaleUpPorts().stream().mapToInt(Port::index).toArray();
        PortSpread spread = new PortSpread(topo, 100, 10, 256);
        double one = spread.time(PortSpread.Kind.PUT, -1, ports, 1);
        long flits = 100_000;
        double many = spread.time(PortSpread.Kind.PUT, -1, ports, flits);
        double allPorts = topo.scaleUpPorts().stream().mapToDouble(Port::bandwidthGBs).sum();
        assertTrue(many >= one + (flits - ports.length) * 256 / allPorts, one + " then " + many);
        assertTrue(spread.time(PortSpread.Kind.GET, -1, ports, 1) > one, "a get's round trip is longer than a put");
    }
}
