package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Golden;
import dev.nunac.testing.TestPaths;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/** Every picture nunac draws is valid XML and matches its golden file; docs/pictures holds the same files. */
class PicturesTest {
    @TempDir
    Path tmp;

    static void assertXml(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        var doc = f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
        assertEquals("svg", doc.getDocumentElement().getNodeName());
    }

    @Test
    void floorplansForAllGatherAtEightRanks() throws Exception {
        for (String topo : List.of("nuna-4die", "mi300x")) {
            for (String policy : List.of("ua", "nap+nar")) {
                Path out = tmp.resolve(topo + policy);
                CliRun r = CliRun.of(TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", topo, "-D",
                        "ranks=8", "-D", "tbs_per_peer=4", "--policy", policy, "--emit", "svg", "-o", out.toString());
                assertEquals(0, r.exit(), r.err());
                String svg = Files.readString(out.resolve("floorplan.svg"));
                assertXml(svg);
                String name = "floorplan-allgather-" + topo + "-" + policy.replace("+", "-") + ".svg";
                Golden.assertMatches("../../../../../../docs/pictures/" + name, svg);
            }
        }
    }

    @Test
    void floorplanShowsTheChosenRankAndRefusesOneOutOfRange() throws Exception {
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        Path out = tmp.resolve("rank3");
        CliRun r = CliRun.of(plan, "--topo", "mi300x", "-D", "ranks=8", "--emit", "svg", "--rank", "3", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        String svg = Files.readString(out.resolve("floorplan.svg"));
        assertXml(svg);
        org.junit.jupiter.api.Assertions.assertTrue(svg.contains("rank 3 of 8"), svg);
        // ports name the GPU they reach from rank 3
        org.junit.jupiter.api.Assertions.assertTrue(svg.contains("\u2192 GPU 4"), svg);
        CliRun bad = CliRun.of(plan, "--topo", "mi300x", "-D", "ranks=8", "--emit", "svg", "--rank", "8", "-o", out.toString());
        assertEquals(2, bad.exit(), bad.err());
        org.junit.jupiter.api.Assertions.assertTrue(bad.err().contains("--rank: expected a rank from 0 to 7 (the plan has 8 ranks), got '8'"),
                bad.err());
    }

    @Test
    void plotsAreValidXmlAndStable() throws Exception {
        String line = Plots.lineChart("speedup over UA", "collective size", "speedup", List.of("100kB", "1MB", "10MB"),
                List.of(new Plots.Series("nap+nar", new double[] {1.8, 1.5, 1.1}), new Plots.Series("ua+nar",
                        new double[] {1.2, Double.NaN, 1.0})), 1.0);
        String hist = Plots.histogram("store latency", "ns", List.of(new Plots.Histogram("ua", 800, 20, new long[] {1, 5, 9, 3}),
                new Plots.Histogram("nap+nar", 700, 20, new long[] {4, 8, 2, 0, 1})));
        assertXml(line);
        assertXml(hist);
        Golden.assertMatches("pictures/line-chart.svg", line);
        Golden.assertMatches("pictures/histogram.svg", hist);
    }

    @Test
    void compareWritesThePlotsAndTheSideBySideFloorplan() throws Exception {
        Path out = tmp.resolve("cmp");
        CliRun r = CliRun.of("compare", TestPaths.examples().resolve("allgather-direct.msccl").toString(), "--topo", "nuna-4die",
                "-D", "ranks=4", "--sizes", "100KB,1MB", "--policies", "ua,nap+nar", "--plot", "--svg", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        for (String f : List.of("speedup.svg", "store-latency.svg", "floorplans.svg")) {
            String svg = Files.readString(out.resolve(f));
            assertXml(svg);
            Golden.assertMatches("pictures/compare-allgather-4-" + f, svg);
        }
    }
}
