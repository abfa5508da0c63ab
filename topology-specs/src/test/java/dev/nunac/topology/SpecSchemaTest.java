package dev.nunac.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The published schema and the reader agree in both directions: every bundled spec fits the
 * schema; what the schema refuses gets one message at the offending value, and the reader never
 * sees it; what the schema accepts but breaks a rule no schema can say is the reader's to refuse.
 */
class SpecSchemaTest {
    static String tiny() throws Exception {
        return Files.readString(Path.of("src/test/resources/tiny.json"));
    }

    @Test
    void everyBundledSpecFitsTheSchema() throws Exception {
        for (String name : TopologyResolver.bundledNames()) {
            byte[] bytes = TopologyLoader.readResource(TopologyResolver.RESOURCE_DIR + name + ".json");
            Diagnostics d = new Diagnostics();
            assertTrue(SpecSchema.check(TopologyLoader.tree(name + ".json", bytes), d), name + ": " + d.all());
        }
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            "routing": "xy",               | "routing": "xy", "hopCycle": 1,   | 11:22 | $.noc: unknown field 'hopCycle' (allowed: routing, clockMHz, hopCycles, linkBandwidthGBs, routerInjectionGBs, routerEjectionGBs, mesh, routers, links)
            "perRouter": 2}]\\n  },\\n  "memory" | "perRouter": "2"}]\\n  },\\n  "memory" | 23:69 | $.compute.groups[0].perRouter: must be an integer, found string "2"
            , "basis": "assumed", "source": "t"},\\n    "linkNs" | , "basis": "assumed"},\\n    "linkNs" | 40:18 | $.latencies.cuToNocNs: missing required field 'source'
            {"x": 0, "y": "0..1"}         | {"x": 0, "y": "0-1"}              | 34:33 | $.io.groups[0].routers.y: must be an integer or a string matching ^[0-9]{1,6}\\.\\.[0-9]{1,6}$ or an array, found string "0-1"
            {"x": 3, "y": "0..1"}         | {"x": 3}                          | 35:19 | $.io.groups[1].routers: must be a string or an array or an object with 'die' or an object with 'y', found object
            "rule": "round-robin"         | "rule": "modulo"                  | 22:17 | $.compute.dispatch: missing required field 'dies'
            "model": "clos"               | "model": "direct", "gpus": 2      | 38:14 | $.scaleUp: missing required field 'peers'
            "format": 1                   | "format": 2                       | 2:13  | $.format: must be 1, found integer 2
            "clockMHz": {"value": 1000    | "clockMHz": {"value": 0           | 12:27 | $.noc.clockMHz.value: must be > 0, found integer 0
            "width": 4                    | "width": 5000                     | 16:16 | $.noc.mesh.width: must be <= 1024, found integer 5000
            "kind": "compute", "at": [0, 0]} | "kind": "gpu", "at": [0, 0]} | 7:26  | $.dies[0].kind: must be one of compute, io, base, found string "gpu"
            "granularities": [1, 2, 4]    | "granularities": [1, 2, 2]        | 48:28 | $.nar.granularities: must list each item once, found array
            "source": "t"},\\n    "mesh" | "source": "t"}, "routerInjectionGBs": {"value": 0, "basis": "assumed", "source": "t"},\\n    "mesh" | 14:108 | $.noc.routerInjectionGBs.value: must be > 0, found integer 0
            "source": "t"},\\n    "mesh" | "source": "t"}, "routerEjectionGBs": {"value": "fast", "basis": "assumed", "source": "t"},\\n    "mesh" | 14:107 | $.noc.routerEjectionGBs.value: must be a number, found string "fast"
            "compute": {                  | "compute": {"injectionGBs": {"value": 0, "basis": "assumed", "source": "t"}, | 21:41 | $.compute.injectionGBs.value: must be > 0, found integer 0
            "compute": {                  | "compute": {"injectionGBs": {"value": 50, "basis": "assumed"}, | 21:31 | $.compute.injectionGBs: missing required field 'source'
            """)
    void whatTheSchemaRefusesGetsOneMessageAtTheValue(String from, String to, String at, String message) throws Exception {
        String spec = tiny().replace(from.replace("\\n", "\n"), to.replace("\\n", "\n"));
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.parse("t.json", spec.getBytes(StandardCharsets.UTF_8)));
        assertEquals(1, e.diagnostics().size(), e.diagnostics().toString());
        assertEquals("t.json:" + at + ": error: " + message, e.diagnostics().get(0).format());
    }

    @Test
    void whatOnlyTheReaderCanSeeIsTheReadersToRefuse() throws Exception {
        String spec = tiny().replace("[\"r1_0\", \"r2_1\"]", "[\"r1_0\", \"r9_9\"]");
        Diagnostics d = new Diagnostics();
        assertTrue(SpecSchema.check(TopologyLoader.tree("t.json", spec.getBytes(StandardCharsets.UTF_8)), d), d.all().toString());
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.parse("t.json", spec.getBytes(StandardCharsets.UTF_8)));
        assertEquals("t.json:29:37: error: $.memory.groups[0].routers[1]: unknown router 'r9_9'", e.diagnostics().get(0).format());
    }
}
