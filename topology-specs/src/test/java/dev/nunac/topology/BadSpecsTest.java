package dev.nunac.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostic;
import dev.nunac.diag.ErrorKind;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Malformed specs: each must fail as an INPUT error at the right place with a clear message. */
class BadSpecsTest {
    static final Path BAD = Path.of("src/test/resources/bad");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            port-unknown-router      | 35 | $.io.groups[1].routers[1]: unknown router 'r9_0'
            unknown-field            | 20 | $.noc: unknown field 'hopCycle'
            missing-field            | 25 | $.memory: missing required field 'latencyNs'
            wrong-type               | 23 | $.compute.groups[0].perRouter: must be an integer, found string "2"
            mask-bit-twice           | 25 | mask bit 4 is used twice: CU 2 and CU 8
            unknown-source           | 41 | $.latencies.linkNs.source: unknown source 'paper'
            granularity-not-dividing | 48 | granularity 3 does not divide the 8 scale-up ports
            xy-without-mesh          | 11 | 'xy' routing needs a 'mesh'
            mesh-overlap             | 18 | router (1, 0) is already in die 'd0'
            direct-peer-self         | 41 | $.scaleUp.peers[2][2]: GPU 2 cannot reach itself
            unknown-die              | 18 | $.noc.mesh.regions[1].die: unknown die 'd7'
            range-syntax             | 34 | $.io.groups[0].routers.y: must be an integer or a string matching
            trailing-comma           |  3 | malformed JSON
            duplicate-key            |  3 | Duplicate field 'format'
            too-deep                 |  1 | JSON nested deeper than 32 levels
            not-object               |  1 | $: must be an object, found array
            router-limit-unknown-source | 15 | $.noc.routerInjectionGBs.source: unknown source 'paper'
            cu-injection-zero        | 22 | $.compute.injectionGBs.value: must be > 0, found integer 0
            """)
    void rejected(String name, int line, String message) {
        Path p = BAD.resolve(name + ".json");
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.load(p));
        assertEquals(ErrorKind.INPUT, e.kind());
        Diagnostic d = e.diagnostics().get(0);
        assertEquals(p.toString(), d.pos().file());
        assertEquals(line, d.pos().line(), d.format());
        assertTrue(d.pos().col() > 0, d.format());
        assertTrue(d.message().contains(message), d.format());
        assertTrue(d.format().startsWith(p + ":" + line + ":"), d.format());
    }

    @Test
    void severalErrorsAreReportedTogether() {
        String bad = """
                {"format": 2, "name": "Bad Name", "title": "x", "sources": {}, "dies": [], "oops": 1}
                """;
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.parse("mem.json", bad.getBytes()));
        assertTrue(e.diagnostics().size() >= 4, e.diagnostics().toString());
    }

    @Test
    void numbersWithHugeExponentsAreRefusedBeforeTheyExpand() {
        for (String n : new String[] {"9e999999999", "1e2147483648", "1E+99999999999999", "1e-400"}) {
            String spec = "{\"format\": 1, \"x\": " + n + "}";
            CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.parse("t.json", spec.getBytes()));
            assertEquals(ErrorKind.INPUT, e.kind());
            assertTrue(e.diagnostics().get(0).format().startsWith("t.json:1:20: error: number " + n + " is out of range"),
                    e.diagnostics().get(0).format());
        }
    }

    @Test
    void invalidUtf8IsRefused() {
        byte[] spec = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.parse("t.json", spec));
        // The position and the byte, as for plans.
        assertEquals("t.json:1:7: error: not valid UTF-8 text: byte 0xC0", e.diagnostics().get(0).format());
    }

    @Test
    void missingFileIsAnInputError() {
        CompileException e = assertThrows(CompileException.class, () -> TopologyLoader.load(BAD.resolve("absent.json")));
        assertEquals(ErrorKind.INPUT, e.kind());
    }
}
