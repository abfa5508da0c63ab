package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * --per-rank: each rank's files hold exactly the whole plan's content for that rank (decoded
 * from the compact form and compared with the version 2 placement.json and the full header),
 * the index names every file with its digest, the launch tables are the whole one cut by rank,
 * two runs are byte-identical, and bad combinations are refused with nothing written.
 */
class PerRankOutputsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Stream<Arguments> plans() {
        return Stream.of(Arguments.of("alltoall-direct", "mi300x", "auto", 4), Arguments.of("allreduce-ring", "nuna-4die", "nap+nar", 4),
                Arguments.of("allgather-direct", "nuna-4die", "balanced", 3), Arguments.of("allreduce-ring", "b200", "ua", 2));
    }

    private Path compile(String name, String plan, String topo, String policy, int ranks, String... more) {
        Path out = tmp.resolve(name);
        List<String> args = new ArrayList<>(List.of(TestPaths.examples().resolve(plan + ".msccl").toString(), "--topo", topo, "-D",
                "ranks=" + ranks, "--size", "64KiB", "--policy", policy, "-o", out.toString()));
        args.addAll(List.of(more));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        return out;
    }

    @ParameterizedTest(name = "{0} on {1}, {2}, {3} ranks")
    @MethodSource("plans")
    void perRankFilesAreTheWholePlanRestrictedToTheRank(String plan, String topo, String policy, int ranks) throws IOException {
        Path whole = compile("whole", plan, topo, policy, ranks, "--emit", "launch");
        Path per = compile("per", plan, topo, policy, ranks, "--per-rank", "--emit", "launch");
        assertFalse(Files.exists(per.resolve("placement.json")), "no whole-plan placement.json beside the per-rank files");
        JsonNode w = JSON.readTree(whole.resolve("placement.json").toFile());
        String fullHeader = Files.readString(whole.resolve("placement.h"));
        String wholeLaunch = Files.readString(whole.resolve("launch.txt"));
        int words = w.get("topology").get("mask_words").asInt();
        for (int k = 0; k < ranks; k++) {
            JsonNode p = JSON.readTree(per.resolve(PerRankOutputs.file(k, ranks, Output.JSON)).toFile());
            assertEquals(PlacementJson.VERSION_COMPACT, p.get("version").asInt());
            assertEquals(k, p.get("part").get("rank").asInt());
            for (String key : List.of("plan", "topology", "policy", "search", "summary", "chunk_bytes", "page_bytes", "granularity")) {
                assertEquals(w.get(key), p.get(key), key);
            }
            assertEquals(1, p.get("ranks").size());
            assertEquals(w.get("ranks").get(k), decode(p.get("ranks").get(0), words), "rank " + k + " of placement.json");
            headerHoldsTheRank(fullHeader, Files.readString(per.resolve(PerRankOutputs.file(k, ranks, Output.HEADER))), k, words);
            assertEquals(launchOf(wholeLaunch, k), Files.readString(per.resolve(PerRankOutputs.file(k, ranks, Output.LAUNCH))), "launch.txt of rank " + k);
        }
    }

    @Test
    void compactWholePlanDecodesToVersion2() throws IOException {
        Path full = compile("full", "allreduce-ring", "nuna-4die", "nap+nar", 4);
        Path compact = compile("compact", "allreduce-ring", "nuna-4die", "nap+nar", 4, "--compact");
        JsonNode w = JSON.readTree(full.resolve("placement.json").toFile()), c = JSON.readTree(compact.resolve("placement.json").toFile());
        assertEquals(PlacementJson.VERSION_COMPACT, c.get("version").asInt());
        int words = w.get("topology").get("mask_words").asInt();
        for (int k = 0; k < 4; k++) assertEquals(w.get("ranks").get(k), decode(c.get("ranks").get(k), words));
        String fullHeader = Files.readString(full.resolve("placement.h")), compactHeader = Files.readString(compact.resolve("placement.h"));
        assertTrue(compactHeader.contains("#define NUNAC_PART_RANK -1"), compactHeader);
        assertArrayEquals(CHeaderArrays.ints(fullHeader, "nunac_tb_cu"), CHeaderArrays.ints(compactHeader, "nunac_tb_cu"));
        assertTrue(Files.size(compact.resolve("placement.json")) < Files.size(full.resolve("placement.json")));
    }

    @Test
    void theIndexNamesEveryFileWithItsDigest() throws IOException {
        Path per = compile("per", "alltoall-direct", "mi300x", "auto", 4, "--per-rank");
        JsonNode index = JSON.readTree(per.resolve(PerRankOutputs.INDEX).toFile());
        assertEquals("nunac-placement-index", index.get("schema").asText());
        assertEquals(4, index.get("ranks").asInt());
        assertEquals(4, index.get("files").size());
        List<String> listed = new ArrayList<>();
        for (JsonNode row : index.get("files")) {
            for (JsonNode f : row.get("files")) {
                byte[] bytes = Files.readAllBytes(per.resolve(f.get("name").asText()));
                assertEquals(f.get("bytes").asLong(), bytes.length);
                assertEquals(f.get("sha256").asText(), PerRankOutputs.sha256(bytes));
                assertTrue(f.get("name").asText().startsWith(PerRankOutputs.prefix(row.get("rank").asInt(), 4) + "."));
                listed.add(f.get("name").asText());
            }
        }
        try (Stream<Path> s = Files.list(per)) {
            List<String> onDisk = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("rank-")).sorted().toList();
            assertEquals(onDisk, listed.stream().sorted().toList());
        }
        assertEquals(List.of("rank-0000.placement.h", "rank-0000.placement.json"), listed.subList(0, 2).stream().sorted().toList());
    }

    @Test
    void namesSortInRankOrderPastFourDigits() {
        assertEquals("rank-0007", PerRankOutputs.prefix(7, 512));
        assertEquals("rank-00042", PerRankOutputs.prefix(42, 20000));
        assertEquals("rank-0000.placement.h", PerRankOutputs.file(0, 2, Output.HEADER));
    }

    @Test
    void twoRunsAreByteIdentical() throws IOException {
        Path a = compile("a", "allreduce-ring", "nuna-4die", "nap+nar", 4, "--per-rank", "--emit", "launch");
        Path b = compile("b", "allreduce-ring", "nuna-4die", "nap+nar", 4, "--per-rank", "--emit", "launch");
        Map<String, String> fa = files(a), fb = files(b);
        assertEquals(fa.keySet(), fb.keySet());
        for (String n : fa.keySet()) assertEquals(fa.get(n), fb.get(n), n);
    }

    @Test
    void theHeaderLookupsCompileAndAgree() throws IOException, InterruptedException {
        String cc = PlacementHeaderTest.compiler();
        assumeTrue(cc != null, "no C compiler on PATH: per-rank header compile check skipped");
        Path whole = compile("whole", "allreduce-ring", "nuna-4die", "nap+nar", 4);
        Path per = compile("per", "allreduce-ring", "nuna-4die", "nap+nar", 4, "--per-rank");
        String full = Files.readString(whole.resolve("placement.h"));
        Files.copy(per.resolve(PerRankOutputs.file(2, 4, Output.HEADER)), tmp.resolve("placement.h"));
        Files.writeString(tmp.resolve("main.c"), """
                #include <stdio.h>
                #include "placement.h"
                int main(void) {
                  for (uint32_t b = 0; b < sizeof nunac_page_pages / sizeof nunac_page_pages[0]; b++)
                    for (uint32_t p = 0; p < nunac_page_pages[b]; p++) printf("%d %d\\n", nunac_page_stack(b, p), nunac_page_domain(b, p));
                  printf("out %d\\n", nunac_page_stack(0, nunac_page_pages[0]));
                  for (uint32_t t = 0; t < nunac_tb_offset[1]; t++) {
                    uint32_t w[NUNAC_MASK_WORDS];
                    nunac_tb_mask_words(t, w);
                    for (int i = 0; i < NUNAC_MASK_WORDS; i++) printf("%u%c", w[i], i + 1 < NUNAC_MASK_WORDS ? ' ' : '\\n');
                  }
                  return 0;
                }
                """);
        Process c = new ProcessBuilder(cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", tmp.toString(), "-o",
                tmp.resolve("main").toString(), tmp.resolve("main.c").toString()).redirectErrorStream(true).start();
        String cout = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, c.waitFor(), cout);
        Process run = new ProcessBuilder(tmp.resolve("main").toString()).redirectErrorStream(true).start();
        List<String> lines = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, run.waitFor());
        StringBuilder want = new StringBuilder();
        int[] rank = CHeaderArrays.ints(full, "nunac_page_rank"), off = CHeaderArrays.ints(full, "nunac_page_offset");
        int[] stack = CHeaderArrays.ints(full, "nunac_page_stack"), dom = CHeaderArrays.ints(full, "nunac_page_domain");
        for (int b = 0; b < rank.length; b++) {
            if (rank[b] != 2) continue;
            for (int p = off[b]; p < off[b + 1]; p++) want.append(stack[p]).append(' ').append(dom[p]).append('\n');
        }
        want.append("out -2\n");
        int[] tbOff = CHeaderArrays.ints(full, "nunac_tb_offset");
        long[] masks = CHeaderArrays.of(full, "nunac_tb_mask");
        int words = CHeaderArrays.ints(full, "nunac_tb_mask").length / CHeaderArrays.ints(full, "nunac_tb_cu").length;
        for (int t = tbOff[2]; t < tbOff[3]; t++) {
            for (int i = 0; i < words; i++) want.append(masks[t * words + i]).append(i + 1 < words ? ' ' : '\n');
        }
        assertEquals(want.toString(), String.join("\n", lines) + "\n");
    }

    @Test
    void perRankAndCompactTogetherIsAUsageError() {
        Path out = tmp.resolve("none");
        CliRun r = CliRun.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "--topo", "nuna-4die", "-D", "ranks=2",
                "--per-rank", "--compact", "-o", out.toString());
        r.assertRefused(2, out, "--per-rank writes the compact form already");
    }

    @Test
    void perRankWithoutAPerRankOutputIsAUsageError() {
        Path out = tmp.resolve("none");
        CliRun r = CliRun.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "--topo", "nuna-4die", "-D", "ranks=2",
                "--per-rank", "--only", "report,svg", "-o", out.toString());
        r.assertRefused(2, out, "--per-rank: no per-rank output among those asked for (json, header, launch)");
    }

    @Test
    void aFolderInTheWayOfARankFileWritesNothing() throws IOException {
        Path out = tmp.resolve("blocked");
        Files.createDirectories(out.resolve("rank-0001.placement.h"));
        CliRun r = CliRun.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "--topo", "nuna-4die", "-D", "ranks=2",
                "--per-rank", "-o", out.toString());
        assertEquals(3, r.exit(), r.err()); // an input error: the output folder
        assertTrue(r.err().contains("rank-0001.placement.h") && r.err().contains("a folder of that name is in the way"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(List.of("rank-0001.placement.h"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    /** A compact (version 3) rank object rewritten as version 2 writes it. */
    static JsonNode decode(JsonNode r, int words) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        out.set("rank", r.get("rank"));
        out.set("grid", r.get("grid"));
        JsonNode c = r.get("threadblocks");
        int n = c.get("count").asInt();
        int[] slot = new int[n];
        for (int s = 0; s < r.get("grid").size(); s++) if (r.get("grid").get(s).asInt() >= 0) slot[r.get("grid").get(s).asInt()] = s;
        ArrayNode tbs = f.arrayNode();
        for (int t = 0; t < n; t++) {
            ObjectNode tb = f.objectNode();
            tb.put("tb", t);
            tb.set("cu", at(c.get("cu"), t));
            tb.put("mask", mask(at(c.get("mask"), t), words));
            tb.set("domain", at(c.get("domain"), t));
            tb.set("group", at(c.get("group"), t));
            tb.put("slot", slot[t]);
            tb.set("peer", at(c.get("peer"), t));
            tbs.add(tb);
        }
        out.set("threadblocks", tbs);
        ArrayNode streams = f.arrayNode();
        for (JsonNode s : r.get("streams")) {
            ObjectNode sm = ((ObjectNode) s).deepCopy();
            sm.put("mask", mask(s.get("mask"), words));
            streams.add(sm);
        }
        out.set("streams", streams);
        ArrayNode bufs = f.arrayNode();
        for (JsonNode b : r.get("buffers")) {
            ObjectNode bm = f.objectNode();
            int pages = b.get("pages").asInt();
            bm.set("buffer", b.get("buffer"));
            bm.put("pages", pages);
            bm.set("stack", ints(PageRuns.decode(ints(b.get("stack_runs")), b.has("stack_period") ? b.get("stack_period").asInt() : Math.max(1, pages), pages)));
            bm.set("domain", ints(PageRuns.decode(ints(b.get("domain_runs")), b.has("domain_period") ? b.get("domain_period").asInt() : Math.max(1, pages), pages)));
            bm.set("layout", b.get("layout"));
            if (b.has("slots")) bm.set("slots", b.get("slots"));
            bufs.add(bm);
        }
        out.set("buffers", bufs);
        return out;
    }

    private static JsonNode at(JsonNode column, int t) {
        return column.isArray() ? column.get(t) : column;
    }

    private static String mask(JsonNode m, int words) {
        if (m.isTextual()) return m.asText();
        int[] w = new int[words];
        w[m.asInt() / 32] = 1 << (m.asInt() % 32);
        return dev.nunac.passes.realise.Realised.hex(w);
    }

    private static int[] ints(JsonNode a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = a.get(i).asInt();
        return out;
    }

    private static ArrayNode ints(int[] a) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (int x : a) out.add(x);
        return out;
    }

    /** The per-rank header of rank k against the full header's entries of rank k. */
    private static void headerHoldsTheRank(String full, String part, int k, int words) {
        assertTrue(part.contains("#define NUNAC_PART_RANK " + k + "\n"), "NUNAC_PART_RANK");
        int[] off = CHeaderArrays.ints(full, "nunac_tb_offset");
        for (String a : List.of("nunac_tb_cu", "nunac_tb_domain", "nunac_tb_group", "nunac_tb_grid_slot")) {
            assertArrayEquals(CHeaderArrays.slice(CHeaderArrays.ints(full, a), off[k], off[k + 1]), CHeaderArrays.ints(part, a), a);
        }
        long[] masks = CHeaderArrays.of(full, "nunac_tb_mask"), wide = CHeaderArrays.of(part, "nunac_tb_mask_wide");
        int[] bit = CHeaderArrays.ints(part, "nunac_tb_mask_bit");
        assertEquals(off[k + 1] - off[k], bit.length == 1 && off[k + 1] == off[k] ? 0 : bit.length);
        for (int t = 0; t < off[k + 1] - off[k]; t++) {
            for (int i = 0; i < words; i++) {
                long got = bit[t] >= 0 ? (i == bit[t] / 32 ? 1L << (bit[t] % 32) : 0) : wide[(-bit[t] - 1) * words + i];
                assertEquals(masks[(off[k] + t) * words + i], got, "mask word " + i + " of threadblock " + t);
            }
        }
        int[] go = CHeaderArrays.ints(full, "nunac_grid_offset");
        assertArrayEquals(CHeaderArrays.slice(CHeaderArrays.ints(full, "nunac_grid"), go[k], go[k + 1]), CHeaderArrays.ints(part, "nunac_grid"));
        int[] so = CHeaderArrays.ints(full, "nunac_stream_offset");
        assertArrayEquals(CHeaderArrays.slice(CHeaderArrays.ints(full, "nunac_stream_cus"), so[k], so[k + 1]), CHeaderArrays.ints(part, "nunac_stream_cus"));
        int[] rank = CHeaderArrays.ints(full, "nunac_page_rank"), po = CHeaderArrays.ints(full, "nunac_page_offset");
        int[] stack = CHeaderArrays.ints(full, "nunac_page_stack"), dom = CHeaderArrays.ints(full, "nunac_page_domain");
        int[] pages = CHeaderArrays.ints(part, "nunac_page_pages"), sp = CHeaderArrays.ints(part, "nunac_page_stack_period");
        int[] dp = CHeaderArrays.ints(part, "nunac_page_domain_period");
        int[] sro = CHeaderArrays.ints(part, "nunac_page_stack_run_offset"), sr = CHeaderArrays.ints(part, "nunac_page_stack_runs");
        int[] dro = CHeaderArrays.ints(part, "nunac_page_domain_run_offset"), dr = CHeaderArrays.ints(part, "nunac_page_domain_runs");
        int b2 = 0;
        for (int b = 0; b < rank.length; b++) {
            if (rank[b] != k) continue;
            int n = po[b + 1] - po[b];
            assertEquals(n, pages[b2]);
            assertArrayEquals(CHeaderArrays.slice(stack, po[b], po[b + 1]),
                    PageRuns.decode(CHeaderArrays.slice(sr, 3 * sro[b2], 3 * sro[b2 + 1]), sp[b2], n), "stacks of buffer " + b);
            assertArrayEquals(CHeaderArrays.slice(dom, po[b], po[b + 1]),
                    PageRuns.decode(CHeaderArrays.slice(dr, 3 * dro[b2], 3 * dro[b2 + 1]), dp[b2], n), "domains of buffer " + b);
            b2++;
        }
        assertEquals(b2, pages.length == 1 && b2 == 0 ? 0 : pages.length);
    }

    /** The whole launch table cut to rank k, with its part line: what the per-rank table must be. */
    static String launchOf(String whole, int k) {
        StringBuilder sb = new StringBuilder();
        String[] lines = whole.split("\n");
        for (int i = 0; i < 4; i++) sb.append(lines[i]).append('\n');
        sb.append("part rank=").append(k).append('\n');
        boolean in = false;
        for (String l : lines) {
            if (l.startsWith("rank id=")) in = l.startsWith("rank id=" + k + " ");
            else if (l.equals("end")) in = false;
            if (in) sb.append(l).append('\n');
        }
        return sb.append("end\n").toString();
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) out.put(p.getFileName().toString(), Files.readString(p));
        }
        return out;
    }
}
