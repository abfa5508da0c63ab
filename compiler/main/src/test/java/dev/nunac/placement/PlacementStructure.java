package dev.nunac.placement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * placement.json split for golden files: its structure (which CU, domain, group and grid slot
 * each threadblock gets, how each buffer's pages lie on stacks and domains, which candidates the
 * search timed and chose), compared exactly, as text whose diff reads as the placement change;
 * and the cost model's numbers, compared within a tolerance ({@code Golden.assertMatchesWithin}),
 * so that a change of the model alone does not rewrite the structure's goldens.
 */
final class PlacementStructure {
    private PlacementStructure() {}

    private static JsonNode parse(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String structure(String json) {
        JsonNode d = parse(json);
        StringBuilder sb = new StringBuilder();
        JsonNode plan = d.get("plan");
        sb.append(String.format(Locale.ROOT, "%s (%s, %d ranks, %d threadblocks, %d steps) on %s, %d bytes in chunks of %d, pages of %d%n",
                plan.get("name").asText(), plan.get("collective").asText(), plan.get("ranks").asInt(), plan.get("threadblocks").asInt(),
                plan.get("steps").asInt(), d.get("topology").get("name").asText(), d.get("size_bytes").asLong(), d.get("chunk_bytes").asLong(),
                d.get("page_bytes").asLong()));
        JsonNode s = d.get("search");
        sb.append(String.format(Locale.ROOT, "policy %s, NAR granularity %d%s; chose %s by %s%n", d.get("policy").asText(),
                d.get("granularity").asInt(), d.get("direct").asBoolean() ? " (direct)" : "", s.get("chosen").asText(), s.get("model").asText()));
        sb.append("candidates:");
        for (JsonNode c : s.get("candidates")) sb.append(' ').append(c.get("id").asText()).append(c.has("simulated_ns") ? " (timed)," : ",");
        sb.setLength(sb.length() - 1);
        sb.append('\n');
        sb.append("chosen:");
        fields(sb, d.get("summary").get("chosen"));
        sb.append("\nua:    ");
        fields(sb, d.get("summary").get("ua"));
        sb.append(String.format(Locale.ROOT, "%nlogical groups %d%n", d.get("summary").get("logical_groups").asInt()));
        for (JsonNode r : d.get("ranks")) {
            sb.append(String.format(Locale.ROOT, "rank %d%n", r.get("rank").asInt()));
            for (JsonNode t : r.get("threadblocks")) {
                sb.append(String.format(Locale.ROOT, "  tb %3d  cu %3d  domain %2d  group %3d  peer %3d  slot %3d%n", t.get("tb").asInt(),
                        t.get("cu").asInt(), t.get("domain").asInt(), t.get("group").asInt(), t.get("peer").asInt(), t.get("slot").asInt()));
            }
            sb.append("  grid ").append(runs(r.get("grid"))).append('\n');
            for (JsonNode st : r.get("streams")) {
                sb.append(String.format(Locale.ROOT, "  stream domain %d: %d CUs (%d added for empty dies)%n", st.get("domain").asInt(),
                        st.get("cus").asInt(), st.get("added_for_empty_dies").asInt()));
            }
            for (JsonNode b : r.get("buffers")) {
                sb.append(String.format(Locale.ROOT, "  %s (%s, %d pages): stacks %s; domains %s%n", b.get("buffer").asText(),
                        b.get("layout").asText(), b.get("pages").asInt(), runs(b.get("stack")), runs(b.get("domain"))));
            }
        }
        return sb.toString();
    }

    private static void fields(StringBuilder sb, JsonNode o) {
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            var e = it.next();
            sb.append(' ').append(e.getKey()).append(' ').append(e.getValue().asText());
        }
    }

    /** An int array as runs of equal values: {@code 0x3 2x5} for 0 0 0 2 2 2 2 2, and -1 as {@code -}. */
    static String runs(JsonNode a) {
        StringBuilder sb = new StringBuilder();
        int i = 0, n = a.size();
        while (i < n) {
            int v = a.get(i).asInt(), j = i;
            while (j < n && a.get(j).asInt() == v) j++;
            if (sb.length() > 0) sb.append(' ');
            sb.append(v == -1 ? "-" : String.valueOf(v));
            if (j - i > 1) sb.append('x').append(j - i);
            i = j;
        }
        return sb.toString();
    }

    /** The cost model's numbers, one per line, for a comparison within a tolerance. */
    static String estimates(String json) {
        JsonNode s = parse(json).get("search");
        StringBuilder sb = new StringBuilder();
        for (String k : new String[] {"estimate_ns", "ua_ns", "ideal_ns", "speedup_over_ua", "fraction_of_ideal"}) {
            sb.append(k).append(' ').append(s.get(k).asText()).append('\n');
        }
        for (JsonNode c : s.get("candidates")) {
            sb.append(c.get("id").asText()).append(": analytic ").append(c.get("analytic_ns").asText());
            if (c.has("simulated_ns")) sb.append(", simulated ").append(c.get("simulated_ns").asText());
            sb.append('\n');
        }
        JsonNode sim = parse(json).get("summary").get("simulated");
        if (sim != null && sim.has("store_latency")) {
            JsonNode l = sim.get("store_latency");
            sb.append("store latency:");
            for (String k : new String[] {"min_ns", "mean_ns", "p50_ns", "p99_ns", "max_ns"}) sb.append(' ').append(k).append(' ').append(l.get(k).asText());
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * report.txt with its numbers in decimals and percentages masked (the estimates golden holds
     * them), and the simulated store latencies and the busiest server's name left out (near ties
     * swap it).
     */
    static String maskedReport(String report) {
        return report.replaceAll("(?m)^(\\s+busiest ).*$", "$1#")
                .replaceAll("(?m)^(simulated one-way store latency ).*$", "$1#")
                .replaceAll("-?\\d+\\.\\d+", "#")
                .replaceAll("\\d+ %", "# %")
                .replaceAll("[+-]#%", "#%")
                .replaceAll(" +#", " #"); // a number's width moves its column's padding
    }
}
