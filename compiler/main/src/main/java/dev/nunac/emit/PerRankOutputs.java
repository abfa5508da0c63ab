package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Parallel;
import dev.nunac.ir.TbNumbering;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * {@code --per-rank}: per rank {@code rank-0007.placement.json} and {@code rank-0007.placement.h}
 * in the compact form and, when asked for, {@code rank-0007.launch.txt} (the rank zero-padded to
 * at least 4 digits, so that names sort in rank order and a rank's files sit together); and
 * {@code index.json}, listing per rank its files with their sizes and SHA-256 digests. A runtime
 * on one GPU reads its rank's files only. Flat names, not a folder per rank: 512 folders would
 * add 2 MB of directory blocks to the output. The files are rendered side by side on the machine's cores; the texts do not
 * depend on the order in which they finish.
 */
public final class PerRankOutputs {
    public static final String INDEX = "index.json";
    public static final int INDEX_VERSION = 1;

    private PerRankOutputs() {}

    /** The prefix of {@code rank}'s files in a plan of {@code ranks} ranks: {@code rank-0007}. */
    public static String prefix(int rank, int ranks) {
        int digits = Math.max(4, Integer.toString(Math.max(0, ranks - 1)).length());
        return String.format(Locale.ROOT, "rank-%0" + digits + "d", rank);
    }

    /** The name of {@code rank}'s file of output {@code o}: {@code rank-0007.placement.json}. */
    public static String file(int rank, int ranks, Output o) {
        return prefix(rank, ranks) + "." + o.file;
    }

    /**
     * The per-rank files of the outputs asked for (json, header, launch; others are not per rank)
     * and the index, in rank order, then the index: names relative to the output folder.
     */
    public static Map<String, String> render(CompileResult r, EmitSettings settings, boolean json, boolean header, boolean launch) {
        return render(r, settings, null, json, header, launch);
    }

    /** The same; the headers use {@code fingerprints} of {@code r}'s plan and topology, when not null. */
    public static Map<String, String> render(CompileResult r, EmitSettings settings, PlacementHeader.Fingerprints fingerprints,
                                             boolean json, boolean header, boolean launch) {
        int ranks = r.plan().ranks();
        TbNumbering tbs = TbNumbering.of(r.plan());
        LaunchTable.Parts parts = launch ? LaunchTable.parts(r) : null;
        List<RankFiles> byRank = new ArrayList<>(ranks);
        int threads = Math.min(ranks, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Parallel.pool("nunac-per-rank", Math.max(1, threads));
        try {
            // Hashing the whole plan's text for the headers' fingerprints is the longest single task:
            // queued first, it runs while the other threads render the ranks' JSON (the pool is
            // first in, first out, so it has a thread before any rank waits for it).
            CompletableFuture<PlacementHeader.Fingerprints> fp = !header ? null : fingerprints != null
                    ? CompletableFuture.completedFuture(fingerprints) : CompletableFuture.supplyAsync(() -> PlacementHeader.Fingerprints.of(r), pool);
            List<CompletableFuture<RankFiles>> futures = new ArrayList<>(ranks);
            for (int k = 0; k < ranks; k++) {
                int rank = k;
                futures.add(CompletableFuture.supplyAsync(() -> {
                    Map<String, String> files = new LinkedHashMap<>();
                    if (json) files.put(file(rank, ranks, Output.JSON), PlacementJson.emitRank(r, rank, tbs.first(rank)));
                    if (header) files.put(file(rank, ranks, Output.HEADER), PlacementHeader.emitRank(r, settings, Parallel.join(fp), rank, tbs.first(rank)));
                    if (launch) files.put(file(rank, ranks, Output.LAUNCH), parts.emit(rank));
                    return new RankFiles(files, listing(files)); // digests taken here, side by side, not one after another
                }, pool));
            }
            for (CompletableFuture<RankFiles> f : futures) byRank.add(Parallel.join(f));
        } finally {
            pool.shutdownNow();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (RankFiles f : byRank) out.putAll(f.files());
        out.put(INDEX, index(r, byRank));
        return out;
    }

    /** One rank's files, by name, and their entries in the index. */
    private record RankFiles(Map<String, String> files, List<Object> listing) {}

    /** The index's entries of {@code files}: name, size in bytes and SHA-256 of each. */
    private static List<Object> listing(Map<String, String> files) {
        List<Object> out = new ArrayList<>();
        for (Map.Entry<String, String> f : files.entrySet()) {
            byte[] bytes = f.getValue().getBytes(StandardCharsets.UTF_8);
            Map<String, Object> fm = new TreeMap<>();
            fm.put("name", f.getKey());
            fm.put("bytes", bytes.length);
            fm.put("sha256", sha256(bytes));
            out.add(fm);
        }
        return out;
    }

    private static String index(CompileResult r, List<RankFiles> byRank) {
        Map<String, Object> root = new TreeMap<>();
        root.put("schema", "nunac-placement-index");
        root.put("version", INDEX_VERSION);
        root.put("plan", r.plan().name());
        root.put("topology", r.topology().name());
        root.put("placement_version", PlacementJson.VERSION_COMPACT);
        root.put("ranks", r.plan().ranks());
        List<Object> rows = new ArrayList<>();
        for (int k = 0; k < byRank.size(); k++) {
            Map<String, Object> row = new TreeMap<>();
            row.put("rank", k);
            row.put("files", byRank.get(k).listing());
            rows.add(row);
        }
        root.put("files", rows);
        return CanonicalJson.write(root);
    }

    static String sha256(byte[] bytes) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(bytes);
            StringBuilder sb = new StringBuilder(64);
            for (byte b : h) sb.append(Character.forDigit((b >>> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
