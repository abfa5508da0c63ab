package dev.nunac.reproduction;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every quantitative claim of the NUNA paper's evaluation beside ours: the figures record what
 * they measured as they run ({@link #put}), and {@link #table} sets each beside the paper's words
 * ({@code {{CLAIMS}}}, filled after the figures). A claim whose figure the document does not
 * compute says so.
 */
final class PaperClaims {
    /** A claim: its key, the paper's statement and where, and what of ours answers it. */
    record Claim(String key, String paper, String where, String measured) {}

    static final List<Claim> CLAIMS = List.of(
            new Claim("nap+nar", "up to 1.8x", "abstract; §6.1, Fig. 9", "NAP+NAR over UA, best point of the Fig. 9 table above"),
            new Claim("nap+nar-best", "up to 1.8x", "abstract; §6.1, Fig. 9",
                    "NAP+NAR over UA, each at its best of 7, 112 and 1,008 threadblocks per GPU, Fig. 9's second table (8 GPUs)"),
            new Claim("nar", "up to 1.35x (\"up to 35 %\")", "§1", "UA+NAR over UA, best point of the Fig. 9 table above"),
            new Claim("nap", "up to 1.5x (abstract), yet \"isolated NAP is not beneficial\" (§6.3): the paper contradicts itself",
                    "abstract; §6.3, Fig. 11", "NAP over UA, Fig. 11"),
            new Claim("fig10-ua", "mean 920 ns, max 1,320 ns", "§6.2, Fig. 10(a)", "UA, Fig. 10"),
            new Claim("fig10-nn", "mean 780 ns, max 1,180 ns", "§6.2, Fig. 10(b)", "NAP+NAR, Fig. 10"),
            new Claim("fig10-max", "maximum latency 10 % lower than UA's", "§6.2", "NAP+NAR's max against UA's, Fig. 10"),
            new Claim("fig12", "speedup greater when collectives are small, falling with size", "§6.4, Fig. 12",
                    "NAP+NAR over UA by size, Fig. 12 (one threadblock per peer)"),
            new Claim("fig13", "1,008 threadblocks: the finest granularity (12 domains) best; 7 threadblocks: too many domains slow",
                    "§6.5, Fig. 13", "fastest granularity, Fig. 13"),
            new Claim("fig14", "NAP+NAR degrades only at a GEMM two times larger than UA's", "§6.6, Fig. 14",
                    "first GEMM size at which each is 10 % slower than alone, Fig. 14"),
            new Claim("ttft", "TTFT -6 % geomean (up to -11 %), 12 models on 2-64 GPUs", "§6.7, Fig. 15",
                    "the shipped workloads, nunac's choice against UA, Fig. 15"),
            new Claim("tpot", "TPOT -7 % geomean (up to -28 %)", "§6.7, Fig. 15", "the same"),
            new Claim("comm", "communication 1.32x (prefill) and 1.56x (decode), geomeans", "§6.7",
                    "geomean over the shipped workloads, Fig. 15"));

    private final Map<String, String> ours = new LinkedHashMap<>();

    /** What a figure measured for claim {@code key}. */
    void put(String key, String value) {
        ours.put(key, value);
    }

    String table() {
        StringBuilder sb = new StringBuilder("| claim | the paper | where | ours | measured as |\n|---|---|---|---|---|\n");
        for (Claim c : CLAIMS) {
            sb.append("| ").append(c.key()).append(" | ").append(c.paper()).append(" | ").append(c.where()).append(" | ")
                    .append(ours.getOrDefault(c.key(), "not computed in this document")).append(" | ").append(c.measured()).append(" |\n");
        }
        return sb.toString();
    }
}
