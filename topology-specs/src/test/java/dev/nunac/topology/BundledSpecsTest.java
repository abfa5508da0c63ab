package dev.nunac.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundledSpecsTest {
    static final Path SPECS = Path.of(".").toAbsolutePath().normalize();

    private static Topology nuna() {
        return TopologyResolver.resolve("nuna-4die");
    }

    private static int router(Topology t, String id) {
        return t.routers().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow().index();
    }

    @Test
    void everyBundledSpecGivesItsInjectionLimitsWithProvenance() {
        for (String n : TopologyResolver.BUNDLED) {
            Topology t = TopologyResolver.resolve(n);
            Noc noc = t.nocFigures();
            for (Quantity q : new Quantity[] {noc.cuInjectionGBs(), noc.routerInjectionGBs(), noc.routerEjectionGBs()}) {
                assertTrue(q != null && q.value() > 0 && !q.note().isEmpty(), n + ": " + q);
            }
            // a router's limit must let its stacks run at their bandwidth
            for (Stack st : t.stacks()) assertTrue(t.routerEjectionGBs(st.router()) >= st.bandwidthGBs(), n + " " + st.id());
            assertTrue(TopologyPrinter.summary(t).contains("injection: "), n);
        }
        Topology nuna = nuna();
        assertEquals(307.2, nuna.cuInjectionGBs(), 1e-9);
        assertEquals(2500, nuna.routerInjectionGBs(0), 1e-9);
        assertEquals(2500, nuna.routerEjectionGBs(0), 1e-9);
    }

    @Test
    void aSpecWithoutInjectionLimitsDerivesThemFromItsLinks() throws IOException {
        Topology t = TopologyLoader.load(SPECS.resolve("src/test/resources/tiny.json"));
        assertEquals(null, t.nocFigures().cuInjectionGBs());
        assertEquals(100, t.cuInjectionGBs(), 1e-9, "a CU fills one link");
        // tiny is a 4 x 2 mesh of 100 GB/s links: a corner router has 2 links, an inner one 3
        assertEquals(200, t.routerInjectionGBs(router(t, "r0_0")), 1e-9);
        assertEquals(300, t.routerEjectionGBs(router(t, "r1_0")), 1e-9);
        assertTrue(TopologyPrinter.summary(t).contains("injection: 100 GB/s per CU (default: the link bandwidth); per router 200..300 GB/s in, 200..300 GB/s out (default: the router's links together)"),
                TopologyPrinter.summary(t));
    }

    @Test
    void everyBundledSpecLoadsFromTheClasspathAndFromItsFile() throws IOException {
        List<String> files;
        try (Stream<Path> s = Files.list(SPECS)) {
            files = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).map(n -> n.substring(0, n.length() - 5)).sorted().toList();
        }
        assertEquals(files, TopologyResolver.BUNDLED, "BUNDLED must list exactly the specs beside the pom");
        for (String n : TopologyResolver.BUNDLED) {
            Topology a = TopologyResolver.resolve(n);
            Topology b = TopologyLoader.load(SPECS.resolve(n + ".json"));
            assertEquals(n, a.name());
            assertEquals(TopologyPrinter.expanded(a), TopologyPrinter.expanded(b));
        }
    }

    @Test
    void nuna4dieCountsMatchTable2() {
        Topology t = nuna();
        assertEquals(576, t.cus().size());
        assertEquals(144, t.ports().size());
        assertEquals(144, t.scaleUpPorts().size());
        assertEquals(16, t.stacks().size());
        assertEquals(144, t.routers().size());
        assertEquals(6, t.dies().size());
        assertEquals(40000.0, t.stacks().stream().mapToDouble(Stack::bandwidthGBs).sum(), 1e-6);
        assertEquals(7200.0, t.scaleUpPorts().stream().mapToDouble(Port::bandwidthGBs).sum(), 1e-6);
        for (int die = 1; die <= 4; die++) {
            int d = die;
            assertEquals(144, t.cus().stream().filter(c -> c.die() == d).count());
        }
        assertEquals(700, t.budgets().outstandingPerCu().asLong());
        assertEquals(4096, t.budgets().pageSize());
        assertArrayEquals(new int[] {1, 2, 4, 6, 12}, t.narGranularities());
    }

    @Test
    void xyHopsAndPathsOnTheMesh() {
        Topology t = nuna();
        assertEquals(28, t.hops(router(t, "r0_0"), router(t, "r23_5")));
        assertEquals(23, t.hops(router(t, "r0_3"), router(t, "r23_3")));
        assertEquals(7, t.hops(router(t, "r5_1"), router(t, "r10_3")));
        assertEquals(0, t.hops(router(t, "r7_2"), router(t, "r7_2")));
        int[] p = t.routerPath(router(t, "r0_0"), router(t, "r2_1"));
        assertArrayEquals(new int[] {router(t, "r0_0"), router(t, "r1_0"), router(t, "r2_0"), router(t, "r2_1")}, p);
        int[] back = t.routerPath(router(t, "r2_1"), router(t, "r0_0"));
        assertArrayEquals(new int[] {router(t, "r2_1"), router(t, "r1_1"), router(t, "r0_1"), router(t, "r0_0")}, back);
        assertEquals(28 * 10 / 1.2, t.nocLatencyNs(router(t, "r0_0"), router(t, "r23_5")), 1e-9);
    }

    @Test
    void narDomainSplits() {
        Topology t = nuna();
        for (int k : new int[] {2, 4, 6, 12}) {
            List<NarDomain> ds = t.narDomains(k);
            assertEquals(k, ds.size());
            for (NarDomain d : ds) {
                int lo = d.index() * 144 / k;
                assertArrayEquals(IntStream.range(lo, lo + 144 / k).toArray(), d.ports(), "k=" + k + " d=" + d.index());
            }
        }
        // Granularity 2 is one edge each; 12 is one edge router each.
        assertTrue(IntStream.of(t.narDomains(2).get(0).ports()).allMatch(p -> t.routers().get(t.ports().get(p).router()).x() == 0));
        assertTrue(IntStream.of(t.narDomains(2).get(1).ports()).allMatch(p -> t.routers().get(t.ports().get(p).router()).x() == 23));
        assertTrue(IntStream.of(t.narDomains(12).get(7).ports()).allMatch(p -> t.ports().get(p).router() == router(t, "r23_1")));
        assertEquals("io0", t.dies().get(t.ports().get(0).die()).id());
        assertEquals("io1", t.dies().get(t.ports().get(143).die()).id());
    }

    @Test
    void distanceOrderings() {
        Topology t = nuna();
        assertArrayEquals(IntStream.range(0, 12).toArray(), t.nearestPorts(0));
        int[] order = t.cusByDistance(t.narDomains(12).get(0).ports());
        assertArrayEquals(new int[] {0, 1, 2, 3}, java.util.Arrays.copyOf(order, 4));
        assertEquals(576, IntStream.of(order).distinct().count());
        // CU 0 sits on r0_0; the nearest stack is on r1_0, one hop away.
        int s = t.stacksByDistanceFromCu(0)[0];
        assertEquals(router(t, "r1_0"), t.stacks().get(s).router());
        int s143 = t.stacksByDistanceFromPort(143)[0];
        assertEquals(router(t, "r22_5"), t.stacks().get(s143).router());
        assertEquals(0, t.nearestDomain(12, 0));
        assertEquals(11, t.nearestDomain(12, 575));
    }

    @Test
    void mi300xMasksDispatchAndPeers() {
        Topology t = TopologyResolver.resolve("mi300x");
        assertEquals(304, t.cus().size());
        assertEquals(8, t.stacks().size());
        assertEquals(7, t.scaleUpPorts().size());
        assertEquals(0, t.maskBit(0));
        assertEquals(8, t.maskBit(1));
        assertEquals(1, t.maskBit(38));
        assertEquals("xcd1", t.dieOfCu(38).id());
        assertEquals(38, t.cuOfMaskBit(1));
        // Mask bit i selects XCD i mod 8.
        for (ComputeUnit c : t.cus()) assertEquals("xcd" + (c.maskBit() % 8), t.dies().get(c.die()).id());
        assertEquals("xcd1", t.dies().get(t.dispatch().dieOfBlock(9)).id());
        assertEquals(2, t.hops(0, 3));
        for (int g = 0; g < 8; g++) {
            for (int p = 0; p < 8; p++) {
                if (p == g) continue;
                int port = t.portToPeer(g, p);
                assertEquals(p, t.peerOfPort(g, port));
            }
        }
        assertEquals(2, t.peerOfPort(3, 6));
    }

    @Test
    void resolverPrefersFilesThenBundledNames(@TempDir Path dir) throws IOException {
        assertEquals("mi300x", TopologyResolver.resolve("mi300x.json").name());
        CompileException e = assertThrows(CompileException.class, () -> TopologyResolver.resolve("no-such-gpu"));
        assertEquals(ErrorKind.INPUT, e.kind());
        Path copy = dir.resolve("mine.json");
        Files.writeString(copy, Files.readString(SPECS.resolve("b200.json")).replace("\"name\": \"b200\"", "\"name\": \"mine\""));
        assertEquals("mine", TopologyResolver.resolve(copy.toString()).name());
    }

    @Test
    void overrideReplacesThePortMap(@TempDir Path dir) throws IOException {
        Path o = dir.resolve("measured.json");
        // Peer table: GPU g lists the other GPUs from 7 down to 0.
        StringBuilder rows = new StringBuilder();
        for (int g = 0; g < 8; g++) {
            StringBuilder r = new StringBuilder();
            for (int q = 7; q >= 0; q--) if (q != g) r.append(r.length() == 0 ? "" : ", ").append(q);
            rows.append(g == 0 ? "" : ",\n").append("[").append(r).append("]");
        }
        Files.writeString(o, "{\"scaleUp\": {\"peers\": [" + rows + "], \"basis\": \"measured\"}}\n");
        Topology t = TopologyResolver.resolve("mi300x", o);
        assertEquals(0, t.portToPeer(0, 7));
        assertEquals(6, t.portToPeer(0, 1));
        Files.writeString(o, "{\"io\": {\"groups\": [{\"routers\": \"r5_5\", \"perRouter\": 1, \"kind\": \"scale-up\"}]}}\n");
        CompileException e = assertThrows(CompileException.class, () -> TopologyResolver.resolve("mi300x", o));
        assertEquals(o.toString(), e.diagnostics().get(0).pos().file());
        assertEquals(1, e.diagnostics().get(0).pos().line());
        assertTrue(e.diagnostics().get(0).message().contains("unknown router 'r5_5'"), e.diagnostics().get(0).message());
    }

    @Test
    void printingIsDeterministic() {
        for (String n : TopologyResolver.BUNDLED) {
            String a = TopologyPrinter.summary(TopologyResolver.resolve(n)) + TopologyPrinter.expanded(TopologyResolver.resolve(n));
            String b = TopologyPrinter.summary(TopologyResolver.resolve(n)) + TopologyPrinter.expanded(TopologyResolver.resolve(n));
            assertEquals(a, b);
        }
        assertTrue(TopologyPrinter.summary(nuna()).contains("576 CUs"));
    }
}
