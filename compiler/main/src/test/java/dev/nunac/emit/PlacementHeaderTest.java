package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** placement.h: symbol prefixes, and headers of several plans in one translation unit. */
class PlacementHeaderTest {
    @TempDir
    Path tmp;

    static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    private Path header(String plan, String topo, String dir, String... more) throws Exception {
        Path out = tmp.resolve(dir);
        List<String> args = new ArrayList<>(List.of(example(plan), "--topo", topo, "-D", "ranks=4", "-o", out.toString(),
                "--emit", "header"));
        args.addAll(List.of(more));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        return out.resolve("placement.h");
    }

    static String compiler() {
        for (String cc : new String[] {"cc", "gcc", "clang"}) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, cc))) return cc;
            }
        }
        return null;
    }

    @Test
    void withoutAPrefixTheNamesStayAsTheyWere() throws Exception {
        String h = Files.readString(header("allgather-direct", "mi300x", "plain"), StandardCharsets.UTF_8);
        assertTrue(h.contains("#ifndef NUNAC_PLACEMENT_ALLGATHER_DIRECT_H\n"), h);
        assertTrue(h.contains("#define NUNAC_RANKS 4\n"), h);
        for (String a : new String[] {"nunac_tb_offset[]", "nunac_tb_cu[]", "nunac_tb_mask[][NUNAC_MASK_WORDS]", "nunac_grid[]",
                "nunac_page_stack[]"}) {
            assertTrue(h.contains(a), a);
        }
    }

    @Test
    void aPrefixRenamesEverySymbol() throws Exception {
        String h = Files.readString(header("allgather-direct", "mi300x", "ag", "--header-prefix", "ag"), StandardCharsets.UTF_8);
        assertTrue(h.contains("#ifndef AG_PLACEMENT_ALLGATHER_DIRECT_H\n"), h);
        assertTrue(h.contains("#define AG_RANKS 4\n"), h);
        assertTrue(h.contains("static const int32_t ag_tb_cu[]"), h);
        for (String line : h.split("\n")) {
            if (line.startsWith("#define") || line.startsWith("static const")) {
                assertFalse(line.contains(" nunac_") || line.contains(" NUNAC_") && !line.contains("NUNAC_UNUSED"), line);
            }
        }
    }

    @Test
    void aPrefixMustBeACIdentifier() {
        for (String bad : new String[] {"1ag", "a-b", "", "_x", "a b"}) {
            CliRun r = CliRun.of(example("allgather-direct"), "--topo", "mi300x", "-D", "ranks=4", "-o", tmp.resolve("x").toString(),
                    "--header-prefix", bad);
            assertEquals(2, r.exit(), bad + ": " + r.err());
            assertTrue(r.err().contains("--header-prefix expects a C identifier"), r.err());
        }
    }

    /** Two plans' headers (and the unprefixed one) in one C file, compiled with every warning an error. */
    @Test
    void headersOfTwoPlansCompileInOneTranslationUnit() throws Exception {
        String cc = compiler();
        assumeTrue(cc != null, "no C compiler on PATH: header compile check skipped");
        header("allgather-direct", "mi300x", "ag", "--header-prefix", "ag");
        header("allreduce-ring", "h200", "ar", "--header-prefix", "ar");
        header("alltoall-direct", "nuna-4die", "plain");
        Path c = tmp.resolve("two.c");
        Files.writeString(c, String.join("\n",
                "#include \"ag/placement.h\"",
                "#include \"ar/placement.h\"",
                "#include \"plain/placement.h\"",
                "#include \"ag/placement.h\"",
                "int main(void) {",
                "    uint32_t t = ag_tb_offset[1], u = ar_tb_offset[1];",
                "    int sum = ag_tb_cu[t] + ar_tb_cu[u] + nunac_tb_cu[0] + (int) (ag_tb_mask[0][0] & 1u) + (int) (ar_tb_mask[0][0] & 1u);",
                "    return (AG_RANKS == 4 && AR_RANKS == 4 && NUNAC_RANKS == 4 && sum >= 0) ? 0 : 1;",
                "}", ""), StandardCharsets.UTF_8);
        for (String std : new String[] {"-std=c99", "-std=c11"}) {
            Process p = new ProcessBuilder(cc, std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", tmp.toString(), "-o",
                    tmp.resolve("two").toString(), c.toString()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "compiler timed out");
            assertEquals(0, p.exitValue(), std + "\n" + log);
            Process run = new ProcessBuilder(tmp.resolve("two").toString()).redirectErrorStream(true).start();
            assertTrue(run.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, run.exitValue());
        }
    }

    private static String define(String header, String name) {
        for (String line : header.split("\n")) {
            if (line.startsWith("#define " + name + " ")) return line.substring(("#define " + name + " ").length());
        }
        throw new AssertionError("no #define " + name + " in\n" + header);
    }

    /** The rows of a two-dimensional mask array, each as placement.json writes a mask (most significant word first). */
    private static List<String> maskRows(String header, String array) {
        int at = header.indexOf(array + "[][");
        assertTrue(at >= 0, array);
        String body = header.substring(header.indexOf("= {\n", at) + 4, header.indexOf("\n};", at));
        List<String> rows = new ArrayList<>();
        for (String row : body.split("\n")) {
            String[] words = row.replaceAll("[{}u, ]+$", "").replaceAll("[{} u]", "").split(",");
            StringBuilder hex = new StringBuilder("0x");
            for (int i = words.length - 1; i >= 0; i--) hex.append(words[i].substring(2));
            rows.add(hex.toString());
        }
        return rows;
    }

    @Test
    void carriesTheStreamMasksOfPlacementJsonInWordOrder() throws Exception {
        Path out = tmp.resolve("s");
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "mi300x", "-D", "ranks=4", "-o", out.toString(),
                "--emit", "header,json");
        assertEquals(0, r.exit(), r.err());
        String h = Files.readString(out.resolve("placement.h"), StandardCharsets.UTF_8);
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.resolve("placement.json").toFile());
        List<String> masks = new ArrayList<>(), tbMasks = new ArrayList<>();
        StringBuilder offsets = new StringBuilder("0");
        int n = 0;
        for (var rank : json.get("ranks")) {
            for (var s : rank.get("streams")) masks.add(s.get("mask").asText());
            for (var t : rank.get("threadblocks")) tbMasks.add(t.get("mask").asText());
            n += rank.get("streams").size();
            offsets.append(", ").append(n);
        }
        assertEquals(masks, maskRows(h, "nunac_stream_mask"));
        assertEquals(tbMasks, maskRows(h, "nunac_tb_mask"));
        assertTrue(h.contains("nunac_stream_offset[] NUNAC_UNUSED = {\n  " + offsets + "\n};"), h);
        assertTrue(h.contains("word 0 first: mask bit b is bit b % 32 of word b / 32"), h);
    }

    @Test
    void statesVersionFingerprintsAndWhatIsAdvisory() throws Exception {
        String mi = Files.readString(header("allgather-direct", "mi300x", "mi"), StandardCharsets.UTF_8);
        String again = Files.readString(header("allgather-direct", "mi300x", "again"), StandardCharsets.UTF_8);
        assertEquals(mi, again, "deterministic");
        assertEquals("\"" + dev.nunac.driver.Version.current() + "\"", define(mi, "NUNAC_COMPILER_VERSION"));
        assertTrue(mi.startsWith("/* Generated by nunac " + dev.nunac.driver.Version.current() + ": plan"), mi);
        assertTrue(define(mi, "NUNAC_PLAN_FINGERPRINT").matches("\"[0-9a-f]{16}\""), mi);
        assertEquals("0", define(mi, "NUNAC_ADVISORY_GRID"));
        assertEquals("0", define(mi, "NUNAC_ADVISORY_STREAM_MASKS"));
        assertEquals("1", define(mi, "NUNAC_ADVISORY_CU"));
        assertEquals("1", define(mi, "NUNAC_ADVISORY_PAGES"));
        String nv = Files.readString(header("allgather-direct", "h200", "nv"), StandardCharsets.UTF_8);
        assertEquals("1", define(nv, "NUNAC_ADVISORY_GRID"));
        assertEquals("1", define(nv, "NUNAC_ADVISORY_STREAM_MASKS"));
        assertEquals(define(mi, "NUNAC_PLAN_FINGERPRINT"), define(nv, "NUNAC_PLAN_FINGERPRINT"), "same plan");
        assertFalse(define(mi, "NUNAC_TOPOLOGY_FINGERPRINT").equals(define(nv, "NUNAC_TOPOLOGY_FINGERPRINT")));

        Path ov = tmp.resolve("override.json");
        Files.writeString(ov, "{\"memory\": {\"latencyNs\": {\"value\": 600, \"basis\": \"measured\", \"source\": \"nunac\"}}}\n");
        String measured = Files.readString(header("allgather-direct", "mi300x", "ov", "--topo-override", ov.toString()),
                StandardCharsets.UTF_8);
        assertFalse(define(mi, "NUNAC_TOPOLOGY_FINGERPRINT").equals(define(measured, "NUNAC_TOPOLOGY_FINGERPRINT")),
                "an override changes the topology's fingerprint");
        assertEquals(define(mi, "NUNAC_PLAN_FINGERPRINT"), define(measured, "NUNAC_PLAN_FINGERPRINT"));
        Path eight = tmp.resolve("eight");
        assertEquals(0, CliRun.of(example("allgather-direct"), "--topo", "mi300x", "-D", "ranks=8", "-o", eight.toString(),
                "--emit", "header").exit());
        assertFalse(define(mi, "NUNAC_PLAN_FINGERPRINT").equals(
                define(Files.readString(eight.resolve("placement.h"), StandardCharsets.UTF_8), "NUNAC_PLAN_FINGERPRINT")));
    }
}
