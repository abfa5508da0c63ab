package dev.nunac.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecReaderTest {
    @TempDir
    Path tmp;

    /** An example plan as a spec names it: relative to the spec's folder (the examples are copied beside it). */
    Path spec(String json) throws Exception {
        for (String ex : List.of("allgather-direct", "alltoall-direct")) {
            Path to = tmp.resolve(ex + ".msccl");
            if (!Files.exists(to)) Files.copy(TestPaths.examples().resolve(ex + ".msccl"), to);
        }
        return Files.writeString(tmp.resolve("spec.json"), json);
    }

    static List<String> ids(SweepSpec s) {
        return s.points().stream().map(SweepSpec.Point::id).toList();
    }

    @Test
    void theCrossProductInSpecOrderWithIdsOfTheSpecsOwnWords() throws Exception {
        SweepSpec s = SpecReader.read(spec("""
                {
                  "description": "two plans, one with two parameter sets",
                  "plans": ["allgather-direct.msccl",
                            {"plan": "alltoall-direct.msccl", "name": "a2a", "defines": [{"tbs_per_peer": 1}, {"tbs_per_peer": 2}]}],
                  "gpus": [2, 4],
                  "topologies": ["nuna-4die", "mi300x.json"],
                  "sizes": ["100KB", 1048576],
                  "policies": ["ua", "auto", "nap+nar"],
                  "nar": "off"
                }
                """));
        assertEquals(3 * 2 * 2 * 2, s.points().size());
        assertEquals(List.of("allgather-direct.g2.nuna-4die.100KB", "allgather-direct.g2.nuna-4die.1048576B", "allgather-direct.g2.mi300x.100KB",
                "allgather-direct.g2.mi300x.1048576B"), ids(s).subList(0, 4));
        assertEquals("a2a.tbs_per_peer=2.g4.mi300x.1048576B", ids(s).get(ids(s).size() - 1));
        assertEquals(List.of("ua", "auto", "nap+nar"), s.rows());
        assertEquals(PlacementOptions.NAR_OFF, s.nar());
        assertEquals(100_000L, s.compileSize());
        SweepSpec.Point last = s.points().get(s.points().size() - 1);
        assertEquals(Map.of("ranks", "4", "tbs_per_peer", "2"), last.plan().defines());
        assertEquals(4, last.plan().plan().ranks());
        assertEquals("a2a", last.plan().name());
    }

    @Test
    void idsAreStableAcrossRunsAndSpellings() throws Exception {
        String a = """
                {"plans": ["allgather-direct.msccl"], "gpus": [2], "topologies": ["nuna-4die"], "sizes": ["1MB", "100KB"]}
                """;
        // the same points, fields in another order and sizes spelled otherwise
        String b = """
                {"sizes": [1000000, "0.1MB"], "topologies": ["nuna-4die.json"], "gpus": [2], "plans": [{"plan": "allgather-direct.msccl"}]}
                """;
        List<String> first = ids(SpecReader.read(spec(a)));
        assertEquals(List.of("allgather-direct.g2.nuna-4die.1MB", "allgather-direct.g2.nuna-4die.100KB"), first);
        assertEquals(first, ids(SpecReader.read(spec(a))));
        assertEquals(first, ids(SpecReader.read(spec(b))));
    }

    @Test
    void defaultsAreEveryPolicyAndAutoNar() throws Exception {
        SweepSpec s = SpecReader.read(spec("""
                {"plans": [{"plan": "allgather-direct.msccl", "defines": {"ranks": 2}}], "topologies": ["nuna-4die"], "sizes": [1000]}
                """));
        assertEquals("auto", s.rows().get(0));
        assertEquals(1 + dev.nunac.passes.place.Policy.values().length, s.rows().size());
        assertEquals(PlacementOptions.NAR_AUTO, s.nar());
        assertEquals(List.of("allgather-direct.ranks=2.nuna-4die.1KB"), ids(s));
    }

    /**
     * Each bad spec: one error, exit 1, at the mistake: where {@code marker} starts in the spec (its
     * last occurrence after "last:"), or line 1, column 1 for an empty marker.
     */
    @Test
    void badSpecsAreOnePositionedError() throws Exception {
        String ok = "\"topologies\": [\"nuna-4die\"], \"sizes\": [\"1MB\"]";
        String ag = "{\"plans\": [\"allgather-direct.msccl\"], ";
        String[][] cases = {
                {ag + ok + ", \"sizes2\": 1}", "\"sizes2\"", "$: unknown field 'sizes2'"},
                {"{" + ok + "}", "", "$: missing required field 'plans'"},
                {"{\"plans\": [], " + ok + "}", "[]", "$.plans: an empty list"},
                {"{\"plans\": [\"nope.msccl\"], " + ok + "}", "\"nope", "plans[0]: no such plan file"},
                {"{\"plans\": [7], " + ok + "}", "7", "$.plans[0]: must be a plan file name or an object"},
                {"{\"plans\": [{\"name\": \"x\"}], " + ok + "}", "{\"name", "$.plans[0]: missing required field 'plan'"},
                {"{\"plans\": [{\"plan\": \"allgather-direct.msccl\", \"name\": \"a b\"}], " + ok + "}", "\"a b", "cannot name a point file"},
                {"{\"plans\": [{\"plan\": \"allgather-direct.msccl\", \"defines\": {\"nosuch\": 1}}], " + ok + "}", "{\"nosuch",
                        "plans[0].defines: nosuch: the plan has no parameter"},
                {"{\"plans\": [{\"plan\": \"allgather-direct.msccl\", \"defines\": {\"ranks\": -1}}], " + ok + "}", "-1",
                        "must be a non-negative integer or a boolean"},
                {"{\"plans\": [{\"plan\": \"allgather-direct.msccl\", \"defines\": {\"ranks\": 2}}], \"gpus\": [2], " + ok + "}", "\"ranks",
                        "\"ranks\" is set by \"gpus\""},
                {"{\"plans\": [{\"plan\": \"allgather-direct.msccl\", \"defines\": [{\"ranks\": 2}, {\"ranks\": 2}]}], " + ok + "}",
                        "last:{\"ranks", "the same parameter set is given twice"},
                {"{\"plans\": [\"allgather-direct.msccl\", \"allgather-direct.msccl\"], " + ok + "}", "last:\"allgather", "is already in the sweep"},
                {ag + "\"gpus\": [2, 0], " + ok + "}", "0]", "$.gpus[1]: must be a positive integer"},
                {ag + "\"gpus\": [2, 2], " + ok + "}", "2]", "gpus[1]: 2 is given twice"},
                {ag + "\"topologies\": [\"gpu9000\"], \"sizes\": [1]}", "\"gpu9000", "'gpu9000' is neither a file beside the spec nor a bundled topology"},
                {ag + "\"topologies\": [\"nuna-4die\", \"nuna-4die\"], \"sizes\": [1]}", "last:\"nuna", "is given twice"},
                {ag + "\"topologies\": [\"nuna-4die\"], \"sizes\": [\"1MB\", \"1000KB\"]}", "\"1000KB", "sizes[1]: 1MB is given twice"},
                {ag + "\"topologies\": [\"nuna-4die\"], \"sizes\": [\"1XB\"]}", "\"1XB", "unknown unit"},
                {ag + "\"topologies\": [\"nuna-4die\"], \"sizes\": [0]}", "0]", "$.sizes[0]: must be a size"},
                {ag + ok + ", \"policies\": [\"fastest\"]}", "\"fastest", "unknown policy 'fastest'"},
                {ag + ok + ", \"policies\": [\"ua\", \"ua\"]}", "last:\"ua", "ua is given twice"},
                {ag + ok + ", \"nar\": \"sometimes\"}", "\"sometimes", "$.nar: must be \"auto\", \"off\""},
                {ag + ok + ", \"layout\": \"tight\"}", "\"tight", "$.layout: must be \"natural\" or \"packed\""},
                {ag + ok + ", \"timing\": \"fast\"}", "\"fast", "$.timing: must be \"search\" or \"simulation\""},
                {"{\"plans\": [\"allgather-direct.msccl\",], " + ok + "}", "],", "malformed JSON"},
                {ag.substring(0, ag.length() - 2) + "\n, " + ok + "\n} {}", "last:{", "unexpected content after the end"},
                {"[1]", "[", "$: must be an object"},
                {"", "", "empty document"},
        };
        for (String[] c : cases) {
            Path p = spec(c[0]);
            CompileException e = assertThrows(CompileException.class, () -> SpecReader.read(p), c[0]);
            assertEquals(ErrorKind.PLAN, e.kind(), e.getMessage());
            assertEquals(1, e.diagnostics().size(), e.getMessage());
            var d = e.diagnostics().get(0);
            assertTrue(d.message().contains(c[2]), c[0] + " -> " + d.message());
            assertEquals(p + ":" + at(c[0], c[1]), d.pos().toString(), c[0] + " -> " + d.format());
        }
    }

    /** line:col of the marker in the text (1-based). */
    static String at(String text, String marker) {
        if (marker.isEmpty()) return "1:1";
        int i = marker.startsWith("last:") ? text.lastIndexOf(marker.substring(5)) : text.indexOf(marker);
        assertTrue(i >= 0, marker);
        int line = 1 + (int) text.substring(0, i).chars().filter(ch -> ch == '\n').count();
        return line + ":" + (i - text.lastIndexOf('\n', i - 1));
    }

    @Test
    void theFig9SpecInBenchIsTheReproductionsGrid() {
        SweepSpec s = SpecReader.read(TestPaths.repoRoot().resolve("bench/sweep-fig9.json"));
        assertEquals(3 * 6 * 5, s.points().size());
        assertEquals("allgather-direct.tbs_per_peer=1.g2.nuna-4die.100KB", s.points().get(0).id());
        assertEquals("alltoall-direct.tbs_per_peer=1.g64.nuna-4die.1GB", s.points().get(s.points().size() - 1).id());
        assertEquals(List.of("ua", "ua+nar", "numa+nar", "nap+nar"), s.rows());
        assertTrue(s.packed(), "the paper assumes packed buffers");
        assertTrue(s.simulated(), "the reproduction simulates every row");
    }

    /** docs/schema/sweep.schema.json names the fields the reader takes and the policies there are. */
    @Test
    void theSchemaIsInStepWithTheReader() throws Exception {
        var schema = new com.fasterxml.jackson.databind.ObjectMapper().readTree(TestPaths.repoRoot().resolve("docs/schema/sweep.schema.json").toFile());
        java.util.Set<String> fields = new java.util.TreeSet<>();
        schema.get("properties").fieldNames().forEachRemaining(fields::add);
        assertEquals(new java.util.TreeSet<>(SpecReader.FIELDS), fields);
        java.util.Set<String> planFields = new java.util.TreeSet<>();
        schema.get("properties").get("plans").get("items").get("oneOf").get(1).get("properties").fieldNames().forEachRemaining(planFields::add);
        assertEquals(new java.util.TreeSet<>(SpecReader.PLAN_FIELDS), planFields);
        List<String> policies = new java.util.ArrayList<>();
        schema.get("properties").get("policies").get("items").get("enum").forEach(n -> policies.add(n.asText()));
        List<String> known = new java.util.ArrayList<>(List.of("auto"));
        for (dev.nunac.passes.place.Policy p : dev.nunac.passes.place.Policy.values()) known.add(p.id());
        assertEquals(known, policies);
    }

    @Test
    void aMissingSpecIsAnInputError() {
        CompileException e = assertThrows(CompileException.class, () -> SpecReader.read(tmp.resolve("none.json")));
        assertEquals(ErrorKind.INPUT, e.kind());
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }
}
