package dev.nunac.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Properties over generated meshes: routing, NAR partitions and CU orderings. */
class TopologyPropertiesTest {
    private static final String Q = "{\"value\": %s, \"basis\": \"assumed\", \"source\": \"t\"}";

    /** A w x h mesh, one compute die, 2 CUs per router, k ports per router on both edge columns. */
    static Topology mesh(int w, int h, int perRouter, String routing) {
        int planes = 2 * h * perRouter;
        List<Integer> ks = new ArrayList<>();
        for (int k = 1; k <= planes; k++) if (planes % k == 0) ks.add(k);
        String q = String.format(java.util.Locale.ROOT, Q, 10);
        String json = """
                {"format": 1, "name": "m", "title": "m", "sources": {"t": "test"},
                 "dies": [{"id": "d", "kind": "compute", "at": [0, 0]}],
                 "noc": {"routing": "%s", "clockMHz": %s, "hopCycles": %s, "linkBandwidthGBs": %s,
                         "mesh": {"width": %d, "height": %d, "regions": [{"die": "d", "x": "0..%d", "y": "0..%d"}]}},
                 "compute": {"dispatch": {"rule": "any", "basis": "assumed", "source": "t"},
                             "groups": [{"routers": {"die": "d"}, "perRouter": 2}]},
                 "memory": {"bandwidthGBs": %s, "capacityGiB": %s, "latencyNs": %s,
                            "groups": [{"routers": {"x": "0..%d", "y": 0}, "perRouter": 1}]},
                 "io": {"bandwidthGBs": %s, "groups": [
                    {"routers": {"x": 0, "y": "0..%d"}, "perRouter": %d, "kind": "scale-up"},
                    {"routers": {"x": %d, "y": "0..%d"}, "perRouter": %d, "kind": "scale-up"}]},
                 "scaleUp": {"model": "clos", "basis": "assumed", "source": "t"},
                 "latencies": {"cuToNocNs": %s, "linkNs": %s},
                 "budgets": {"outstandingPerCu": %s, "inFlightBytesPerStack": %s, "pageBytes": {"value": 4096, "basis": "assumed", "source": "t"}},
                 "nar": {"granularities": %s, "basis": "assumed", "source": "t"}}
                """.formatted(routing, q, q, q, w, h, w - 1, h - 1, q, q, q, w - 1, q, h - 1, perRouter, w - 1, h - 1, perRouter,
                q, q, q, q, ks.toString());
        return TopologyLoader.parse("mesh.json", json.getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 40)
    void xyHopsAreManhattanDistance(@ForAll @IntRange(min = 1, max = 12) int w, @ForAll @IntRange(min = 1, max = 8) int h,
            @ForAll @IntRange(min = 0, max = 1000) int a, @ForAll @IntRange(min = 0, max = 1000) int b) {
        Topology t = mesh(w, h, 1, "xy");
        Router ra = t.routers().get(a % t.routers().size());
        Router rb = t.routers().get(b % t.routers().size());
        int manhattan = Math.abs(ra.x() - rb.x()) + Math.abs(ra.y() - rb.y());
        assertEquals(manhattan, t.hops(ra.index(), rb.index()));
        int[] p = t.routerPath(ra.index(), rb.index());
        assertEquals(manhattan + 1, p.length);
        // X first: the y coordinate stays put until x reaches its target.
        boolean turned = false;
        for (int i = 1; i < p.length; i++) {
            Router prev = t.routers().get(p[i - 1]);
            Router cur = t.routers().get(p[i]);
            assertEquals(1, Math.abs(prev.x() - cur.x()) + Math.abs(prev.y() - cur.y()));
            if (cur.y() != prev.y()) turned = true;
            else assertTrue(!turned, "x hop after a y hop");
        }
    }

    @Property(tries = 30)
    void shortestRoutingOnAMeshAlsoGivesManhattanHops(@ForAll @IntRange(min = 1, max = 7) int w,
            @ForAll @IntRange(min = 1, max = 7) int h) {
        Topology t = mesh(w, h, 1, "shortest");
        for (Router ra : t.routers()) {
            for (Router rb : t.routers()) {
                assertEquals(Math.abs(ra.x() - rb.x()) + Math.abs(ra.y() - rb.y()), t.hops(ra.index(), rb.index()));
            }
        }
    }

    @Property(tries = 30)
    void narDomainsPartitionThePortsContiguously(@ForAll @IntRange(min = 1, max = 10) int w,
            @ForAll @IntRange(min = 1, max = 6) int h, @ForAll @IntRange(min = 1, max = 6) int per) {
        Topology t = mesh(w, h, per, "xy");
        int planes = t.scaleUpPorts().size();
        for (int k : t.narGranularities()) {
            BitSet seen = new BitSet();
            int next = 0;
            for (NarDomain d : t.narDomains(k)) {
                assertEquals(planes / k, d.size());
                for (int p : d.ports()) {
                    int plane = t.ports().get(p).plane();
                    assertEquals(next++, plane, "contiguous, in plane order");
                    assertTrue(!seen.get(plane));
                    seen.set(plane);
                }
            }
            assertEquals(planes, seen.cardinality());
        }
    }

    @Property(tries = 30)
    void cuOrderingsAreTotalAndDeterministic(@ForAll @IntRange(min = 1, max = 10) int w,
            @ForAll @IntRange(min = 1, max = 6) int h, @ForAll @IntRange(min = 0, max = 100) int pick) {
        Topology t = mesh(w, h, 2, "xy");
        int[] granularities = t.narGranularities();
        int k = granularities[pick % granularities.length];
        NarDomain d = t.narDomains(k).get(pick % k);
        int[] order = t.cusByDistance(d.ports());
        assertEquals(t.cus().size(), order.length);
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        assertArrayEquals(java.util.stream.IntStream.range(0, t.cus().size()).toArray(), sorted, "a permutation");
        for (int i = 1; i < order.length; i++) {
            int ha = t.hopsToPorts(order[i - 1], d.ports());
            int hb = t.hopsToPorts(order[i], d.ports());
            assertTrue(ha < hb || (ha == hb && order[i - 1] < order[i]), "ordered by hops, then CU index");
        }
        assertArrayEquals(order, mesh(w, h, 2, "xy").cusByDistance(d.ports()));
        int[] reversed = d.ports();
        for (int i = 0; i < reversed.length / 2; i++) {
            int tmp = reversed[i];
            reversed[i] = reversed[reversed.length - 1 - i];
            reversed[reversed.length - 1 - i] = tmp;
        }
        assertArrayEquals(order, t.cusByDistance(reversed), "independent of the order the ports are given in");
    }
}
