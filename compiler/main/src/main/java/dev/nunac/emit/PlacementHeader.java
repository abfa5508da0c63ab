package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Version;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.TbNumbering;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.Dispatch;
import dev.nunac.topology.Topology;
import dev.nunac.topology.TopologyPrinter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * placement.h: the placement as static C arrays for build-time integration — no allocation, an
 * include guard, and per-rank offsets into flat arrays. Unused arrays do not warn. It states the
 * nunac version, fingerprints of the plan and the topology (hashes of their canonical texts, so
 * the same inputs give the same header on any machine), the mask word order, the per-domain
 * stream masks, and which maps the target applies and which are only advisory there.
 */
public final class PlacementHeader {
    private PlacementHeader() {}

    public static String emit(CompileResult r) {
        return emit(r, EmitSettings.DEFAULT);
    }

    /** The header with every array named {@code <prefix>_...} and every macro {@code <PREFIX>_...}. */
    public static String emit(CompileResult r, EmitSettings settings) {
        StringBuilder text = new StringBuilder(PlacementJson.capacity(r, 44 + 13 * r.realised().maskWords(), 8));
        write(r, settings, new TextOut(text));
        return text.toString();
    }

    /** The same text, written to {@code sb} (streamed to its file by the compile). */
    public static void write(CompileResult r, EmitSettings settings, TextOut sb) {
        write(r, settings, Fingerprints.of(r), sb);
    }

    /** The same, with the fingerprints of {@code r}'s plan and topology taken already. */
    public static void write(CompileResult r, EmitSettings settings, Fingerprints fp, TextOut sb) {
        String sym = settings.symbol(), mac = settings.macro();
        String guard = preamble(sb, r, settings, fp, "", "tb_mask");
        sb.append(("/* CU masks (@tb_mask, @stream_mask) are #MASK_WORDS 32-bit words in the vendor's bit\n"
                + "   order, word 0 first: mask bit b is bit b % 32 of word b / 32, and selects the CU whose mask bit\n"
                + "   the topology gives as b (the word array hipExtStreamCreateWithCUMask takes). placement.json\n"
                + "   writes the same mask as one hex number, most significant word first. */\n\n").replace("@", sym).replace("#", mac));
        fullBody(sb, r, sym, mac, guard);
    }

    /** The whole plan in the compact form ({@code --compact}): see {@link #compactBody}. */
    public static String emitCompact(CompileResult r, EmitSettings settings) {
        StringBuilder text = new StringBuilder();
        writeCompact(r, settings, new TextOut(text));
        return text.toString();
    }

    /** The same text, written to {@code sb}. */
    public static void writeCompact(CompileResult r, EmitSettings settings, TextOut sb) {
        writeCompact(r, settings, Fingerprints.of(r), sb);
    }

    /** The same, with the fingerprints of {@code r}'s plan and topology taken already. */
    public static void writeCompact(CompileResult r, EmitSettings settings, Fingerprints fp, TextOut sb) {
        int n = r.plan().ranks();
        int[] ranks = new int[n], bases = new int[n];
        TbNumbering tbs = TbNumbering.of(r.plan());
        for (int k = 0; k < n; k++) {
            ranks[k] = k;
            bases[k] = tbs.first(k);
        }
        String guard = preamble(sb, r, settings, fp, "_COMPACT", "tb_mask_bit");
        compactBody(sb, r, settings, -1, ranks, bases, guard);
    }

    /**
     * Rank {@code rank}'s header of a per-rank output, in the compact form: the arrays hold that
     * rank alone, at index 0. {@code base} is its first global threadblock.
     */
    public static String emitRank(CompileResult r, EmitSettings settings, Fingerprints fp, int rank, int base) {
        StringBuilder text = new StringBuilder();
        TextOut sb = new TextOut(text);
        String guard = preamble(sb, r, settings, fp, "_RANK" + rank, "tb_mask_bit");
        compactBody(sb, r, settings, rank, new int[] {rank}, new int[] {base}, guard);
        return text.toString();
    }

    /**
     * The compact arrays: a single-CU mask as its bit index, wider masks in a table of their own,
     * page maps as runs, and static inline lookups that turn them back into masks, stacks and
     * domains. {@code part} is the one rank of a per-rank header, -1 for the whole plan.
     */
    private static void compactBody(TextOut sb, CompileResult r, EmitSettings settings, int part, int[] ranks, int[] bases, String guard) {
        Placement pl = r.placement();
        String sym = settings.symbol(), mac = settings.macro();
        define(sb, mac + "PART_RANK", part);
        define(sb, mac + "PART_RANKS", ranks.length);
        sb.append(("/* Compact form. Index k of the per-rank arrays (@tb_offset, @stream_offset, @grid_offset) is rank\n"
                + "   #PART_RANK when that is not -1 (a per-rank header holds one rank, at index 0), else rank k.\n"
                + "   Threadblock t of index k is entry @tb_offset[k] + t of the @tb_* arrays. A CU mask is #MASK_WORDS\n"
                + "   32-bit words, word 0 first, mask bit b being bit b % 32 of word b / 32: @tb_mask_bit[i] >= 0\n"
                + "   is a mask of that one bit, a negative value -(w + 1) is row w of @tb_mask_wide. Use\n"
                + "   @tb_mask_words(i, out) for the words. */\n").replace("@", sym).replace("#", mac));
        int[] tbOffset = new int[ranks.length + 1], gridOffset = new int[ranks.length + 1];
        List<Integer> cu = new ArrayList<>(), dom = new ArrayList<>(), grp = new ArrayList<>(), slot = new ArrayList<>(),
                bit = new ArrayList<>(), grid = new ArrayList<>();
        List<int[]> wide = new ArrayList<>();
        for (int k = 0; k < ranks.length; k++) {
            Realised.RankLaunch rl = r.realised().ranks().get(ranks[k]);
            int n = rl.slotOfTb().length;
            tbOffset[k + 1] = tbOffset[k] + n;
            gridOffset[k + 1] = gridOffset[k] + rl.grid().length;
            for (int t = 0; t < n; t++) {
                cu.add(pl.cuOfTb()[bases[k] + t]);
                dom.add(pl.domainOfTb()[bases[k] + t]);
                grp.add(pl.groupOfTb()[bases[k] + t]);
                slot.add(rl.slotOfTb()[t]);
                int b = PageRuns.singleBit(rl.tbMasks().get(t));
                if (b < 0) {
                    wide.add(rl.tbMasks().get(t));
                    b = -wide.size();
                }
                bit.add(b);
            }
            for (int g : rl.grid()) grid.add(g);
        }
        packed(sb, "uint32_t", sym + "tb_offset", tbOffset);
        packed(sb, "int32_t", sym + "tb_cu", ints(cu));
        packed(sb, "int32_t", sym + "tb_domain", ints(dom));
        packed(sb, "int32_t", sym + "tb_group", ints(grp));
        packed(sb, "int32_t", sym + "tb_grid_slot", ints(slot));
        packed(sb, "int32_t", sym + "tb_mask_bit", ints(bit));
        words(sb, sym + "tb_mask_wide", mac, wide);
        sb.append("static inline void ").append(sym).append("tb_mask_words(uint32_t i, uint32_t out[").append(mac).append("MASK_WORDS]) {\n")
                .append("  int32_t b = ").append(sym).append("tb_mask_bit[i];\n")
                .append("  for (int w = 0; w < ").append(mac).append("MASK_WORDS; w++) out[w] = b < 0 ? ").append(sym)
                .append("tb_mask_wide[-b - 1][w] : 0u;\n")
                .append("  if (b >= 0) out[b / 32] = 1u << (b % 32);\n}\n\n");
        int[] streamOffset = new int[ranks.length + 1];
        List<Realised.StreamMask> all = new ArrayList<>();
        for (int k = 0; k < ranks.length; k++) {
            List<Realised.StreamMask> st = r.realised().ranks().get(ranks[k]).streams();
            streamOffset[k + 1] = streamOffset[k] + st.size();
            all.addAll(st);
        }
        sb.append(("/* Stream masks: index k has streams @stream_offset[k] .. @stream_offset[k+1]-1, one per NAR\n"
                + "   domain in use, as in the full header. */\n").replace("@", sym));
        packed(sb, "uint32_t", sym + "stream_offset", streamOffset);
        packed(sb, "int32_t", sym + "stream_domain", all.stream().mapToInt(Realised.StreamMask::domain).toArray());
        packed(sb, "int32_t", sym + "stream_cus", all.stream().mapToInt(Realised.StreamMask::cus).toArray());
        packed(sb, "int32_t", sym + "stream_added", all.stream().mapToInt(Realised.StreamMask::addedForEmptyDies).toArray());
        words(sb, sym + "stream_mask", mac, all.stream().map(Realised.StreamMask::mask).toList());
        sb.append("/* Launch grid of index k: entries ").append(sym).append("grid_offset[k] .. ").append(sym)
                .append("grid_offset[k+1]-1; -1 is an idle block. */\n");
        packed(sb, "uint32_t", sym + "grid_offset", gridOffset);
        packed(sb, "int32_t", sym + "grid", ints(grid));
        sb.append(("/* Page maps as runs: buffer b (names in @page_buffer) of rank @page_rank[b] has @page_pages[b]\n"
                + "   pages; page p has the stack of page p % @page_stack_period[b] in the (start page, count, stack)\n"
                + "   triples @page_stack_runs[3 * i ..] for runs i from @page_stack_run_offset[b] to\n"
                + "   @page_stack_run_offset[b+1]-1, in page order (a period equal to the page count: no repetition),\n"
                + "   and likewise its domain (-1: the hashed segment) in @page_domain_*. Look pages up with\n"
                + "   @page_stack(b, page) and @page_domain(b, page) (-2: no such page). Packed chunk slots as in\n"
                + "   the full header: @slot_offset, @chunk_slot. */\n").replace("@", sym));
        List<PageMap> maps = new ArrayList<>();
        boolean[] in = new boolean[r.plan().ranks()]; // per rank of a per-rank output: no boxing per page map of the plan
        for (int k : ranks) in[k] = true;
        for (PageMap m : pl.pages()) if (m.stack().length > 0 && m.rank() >= 0 && m.rank() < in.length && in[m.rank()]) maps.add(m);
        int[] pageRank = new int[maps.size()], pagePages = new int[maps.size()], stackPeriod = new int[maps.size()], domainPeriod = new int[maps.size()];
        int[] stackOffset = new int[maps.size() + 1], domainOffset = new int[maps.size() + 1], slotOffset = new int[maps.size() + 1];
        List<Integer> stackRuns = new ArrayList<>(), domainRuns = new ArrayList<>(), chunkSlots = new ArrayList<>();
        sb.append("static const char *const ").append(sym).append("page_buffer[] NUNAC_UNUSED = {");
        for (int i = 0; i < maps.size(); i++) {
            PageMap m = maps.get(i);
            sb.append(i > 0 ? ", " : "").append('"').append(comment(m.buffer())).append('"');
            pageRank[i] = m.rank();
            pagePages[i] = m.stack().length;
            stackPeriod[i] = PageRuns.period(m.stack());
            domainPeriod[i] = PageRuns.period(m.domain());
            int[] sr = PageRuns.encode(m.stack(), stackPeriod[i]), dr = PageRuns.encode(m.domain(), domainPeriod[i]);
            stackOffset[i + 1] = stackOffset[i] + sr.length / 3;
            domainOffset[i + 1] = domainOffset[i] + dr.length / 3;
            for (int x : sr) stackRuns.add(x);
            for (int x : dr) domainRuns.add(x);
            slotOffset[i + 1] = slotOffset[i] + (m.slot() == null ? 0 : m.slot().length);
            if (m.slot() != null) for (int x : m.slot()) chunkSlots.add(x);
        }
        if (maps.isEmpty()) sb.append("0");
        sb.append("};\n");
        packed(sb, "int32_t", sym + "page_rank", pageRank);
        packed(sb, "uint32_t", sym + "page_pages", pagePages);
        packed(sb, "uint32_t", sym + "page_stack_period", stackPeriod);
        packed(sb, "uint32_t", sym + "page_domain_period", domainPeriod);
        packed(sb, "uint32_t", sym + "page_stack_run_offset", stackOffset);
        packed(sb, "int32_t", sym + "page_stack_runs", ints(stackRuns));
        packed(sb, "uint32_t", sym + "page_domain_run_offset", domainOffset);
        packed(sb, "int32_t", sym + "page_domain_runs", ints(domainRuns));
        packed(sb, "uint32_t", sym + "slot_offset", slotOffset);
        packed(sb, "int32_t", sym + "chunk_slot", ints(chunkSlots));
        sb.append(("/* The value of page p in runs lo .. hi-1 of a (start, count, value) table: a binary search. */\n"
                + "static inline int32_t @page_run_lookup(const int32_t *runs, uint32_t lo, uint32_t hi, uint32_t p) {\n"
                + "  if (lo >= hi || p < (uint32_t) runs[3 * lo]) return -2;\n"
                + "  while (hi - lo > 1) {\n"
                + "    uint32_t mid = lo + (hi - lo) / 2;\n"
                + "    if ((uint32_t) runs[3 * mid] <= p) lo = mid; else hi = mid;\n"
                + "  }\n"
                + "  return p - (uint32_t) runs[3 * lo] < (uint32_t) runs[3 * lo + 1] ? runs[3 * lo + 2] : -2;\n"
                + "}\n\n"
                + "/* The HBM stack of page p of buffer b, -2 when b or p is out of range. */\n"
                + "static inline int32_t @page_stack(uint32_t b, uint32_t p) {\n"
                + "  if (b >= sizeof(@page_pages) / sizeof(@page_pages[0]) || p >= @page_pages[b]) return -2;\n"
                + "  return @page_run_lookup(@page_stack_runs, @page_stack_run_offset[b], @page_stack_run_offset[b + 1], p % @page_stack_period[b]);\n"
                + "}\n\n"
                + "/* The NAR domain of page p of buffer b (-1: the hashed segment), -2 when b or p is out of range. */\n"
                + "static inline int32_t @page_domain(uint32_t b, uint32_t p) {\n"
                + "  if (b >= sizeof(@page_pages) / sizeof(@page_pages[0]) || p >= @page_pages[b]) return -2;\n"
                + "  return @page_run_lookup(@page_domain_runs, @page_domain_run_offset[b], @page_domain_run_offset[b + 1], p % @page_domain_period[b]);\n"
                + "}\n\n").replace("@", sym));
        sb.append("#endif /* ").append(guard).append(" */\n");
    }

    /** An array as {@link #array} writes it, 24 values a line without spaces: the compact header's. */
    private static void packed(TextOut sb, String type, String name, int[] values) {
        sb.append("static const ").append(type).append(' ').append(name).append("[] NUNAC_UNUSED = {");
        if (values.length == 0) sb.append("0");
        for (int i = 0; i < values.length; i++) {
            if (i % 24 == 0) sb.append('\n');
            sb.append(values[i]);
            if (i + 1 < values.length) sb.append(',');
        }
        sb.append("\n};\n\n");
    }

    private static int[] ints(List<Integer> xs) {
        int[] out = new int[xs.size()];
        for (int i = 0; i < out.length; i++) out[i] = xs.get(i);
        return out;
    }

    /** A table of masks, one row of MASK_WORDS words each (one zero row when there is none). */
    private static void words(TextOut sb, String name, String mac, List<int[]> rows) {
        sb.append("static const uint32_t ").append(name).append("[][").append(mac).append("MASK_WORDS] NUNAC_UNUSED = {\n");
        if (rows.isEmpty()) sb.append("  {0},\n");
        for (int[] m : rows) row(sb, m);
        sb.append("};\n\n");
    }

    /** One row of a mask table, {@code   {0x00000001u, 0x00000000u},}: a whole-plan header has a row per threadblock. */
    private static void row(TextOut sb, int[] m) {
        sb.ascii("  {");
        for (int i = 0; i < m.length; i++) {
            if (i > 0) sb.ascii(", ");
            sb.ascii("0x").hex8(m[i]).append('u');
        }
        sb.ascii("},\n");
    }

    /** The fingerprints of the plan and the topology: hashed once however many headers are written. */
    public record Fingerprints(String plan, String topology) {
        public static Fingerprints of(CompileResult r) {
            return of(r.plan(), r.topology());
        }

        /**
         * The fingerprints of {@code p} on {@code t}, which depend on nothing a pass computes: a
         * compile takes them beside the passes (the IR text of a large plan is tens of MB).
         */
        public static Fingerprints of(dev.nunac.ir.Plan p, Topology t) {
            MessageDigest plan = sha256();
            IrPrinter.print(p, piece -> plan.update(piece.toString().getBytes(StandardCharsets.UTF_8)));
            return new Fingerprints(hex16(plan.digest()), fingerprint(TopologyPrinter.expanded(t)));
        }
    }

    /** The header's opening up to the advisory block, which names the mask array {@code masks}; returns the include guard. */
    private static String preamble(TextOut sb, CompileResult r, EmitSettings settings, Fingerprints fp, String guardPart, String masks) {
        Placement pl = r.placement();
        String sym = settings.symbol(), mac = settings.macro();
        String guard = mac + "PLACEMENT_" + ident(r.plan().name()).toUpperCase(Locale.ROOT) + guardPart + "_H";
        sb.append("/* Generated by nunac ").append(comment(Version.current())).append(": plan \"").append(comment(r.plan().name())).append("\" (")
                .append(r.plan().collective().id()).append(", ").append(r.plan().ranks()).append(" ranks) on topology ")
                .append(comment(r.topology().name())).append(", policy ").append(pl.policy().id())
                .append(", NAR ").append(comment(r.search().granularityLabel())).append(". Do not edit. */\n");
        sb.append("#ifndef ").append(guard).append('\n').append("#define ").append(guard).append("\n\n");
        sb.append("#include <stdint.h>\n\n");
        sb.append("#ifndef NUNAC_UNUSED\n#if defined(__GNUC__)\n#define NUNAC_UNUSED __attribute__((unused))\n#else\n#define NUNAC_UNUSED\n#endif\n#endif\n\n");
        define(sb, mac + "RANKS", r.plan().ranks());
        define(sb, mac + "THREADBLOCKS", pl.cuOfTb().length);
        define(sb, mac + "MASK_WORDS", r.realised().maskWords());
        define(sb, mac + "NAR_GRANULARITY", pl.granularity());
        define(sb, mac + "CHUNK_BYTES", pl.chunkBytes());
        define(sb, mac + "PAGE_BYTES", pl.pageBytes());
        define(sb, mac + "SIZE_BYTES", r.options().sizeBytes());
        sb.append('\n');
        sb.append("/* What made this header: the nunac version, the policy chosen, and the first 16 hex digits of the\n"
                + "   SHA-256 of the plan's IR text (nunac ir) and of the expanded topology, overrides applied\n"
                + "   (nunac topo show --expanded). Equal fingerprints: the same plan and topology. */\n");
        string(sb, mac + "COMPILER_VERSION", Version.current());
        string(sb, mac + "POLICY", pl.policy().id());
        string(sb, mac + "PLAN_FINGERPRINT", fp.plan());
        string(sb, mac + "TOPOLOGY_FINGERPRINT", fp.topology());
        sb.append('\n');
        advisory(sb, r.topology(), sym, mac, masks);
        return guard;
    }

    private static void fullBody(TextOut sb, CompileResult r, String sym, String mac, String guard) {
        Placement pl = r.placement();
        sb.append("/* Threadblock t of rank r is entry ").append(sym).append("tb_offset[r] + t of the ").append(sym).append("tb_* arrays. */\n");
        TbNumbering tbs = TbNumbering.of(r.plan());
        int[] tbOffset = new int[r.plan().ranks() + 1];
        int[] gridOffset = new int[r.plan().ranks() + 1];
        List<Integer> slots = new ArrayList<>(), grid = new ArrayList<>();
        List<int[]> masks = new ArrayList<>();
        for (Realised.RankLaunch rl : r.realised().ranks()) {
            tbOffset[rl.rank() + 1] = tbs.first(rl.rank()) + tbs.size(rl.rank());
            gridOffset[rl.rank() + 1] = gridOffset[rl.rank()] + rl.grid().length;
            for (int s : rl.slotOfTb()) slots.add(s);
            for (int g : rl.grid()) grid.add(g);
            masks.addAll(rl.tbMasks());
        }
        array(sb, "uint32_t", sym + "tb_offset", tbOffset);
        array(sb, "int32_t", sym + "tb_cu", pl.cuOfTb());
        array(sb, "int32_t", sym + "tb_domain", pl.domainOfTb());
        array(sb, "int32_t", sym + "tb_group", pl.groupOfTb());
        array(sb, "int32_t", sym + "tb_grid_slot", slots.stream().mapToInt(Integer::intValue).toArray());
        words(sb, sym + "tb_mask", mac, masks);
        streams(sb, r, sym, mac);
        sb.append("/* Launch grid of rank r: entries ").append(sym).append("grid_offset[r] .. ").append(sym).append("grid_offset[r+1]-1; -1 is an idle block. */\n");
        array(sb, "uint32_t", sym + "grid_offset", gridOffset);
        array(sb, "int32_t", sym + "grid", grid.stream().mapToInt(Integer::intValue).toArray());
        sb.append(("/* Page maps: buffer b (names in @page_buffer) of rank @page_rank[b] has pages\n"
                + "   @page_offset[b] .. @page_offset[b+1]-1 of @page_stack and @page_domain\n"
                + "   (-1: the hashed segment). Its chunk i sits at byte i * chunk bytes, or, when the buffer\n"
                + "   has a packed layout (@slot_offset[b] < @slot_offset[b+1]), in slot\n"
                + "   s = @chunk_slot[@slot_offset[b] + i]: with n = page bytes / chunk bytes whole\n"
                + "   chunks per page, byte (s % n) * chunk bytes of page s / n. */\n").replace("@", sym));
        List<PageMap> maps = pl.pages().stream().filter(p -> p.stack().length > 0).toList();
        int[] pageOffset = new int[maps.size() + 1];
        int[] slotOffset = new int[maps.size() + 1];
        int[] pageRank = new int[maps.size()];
        List<Integer> chunkSlots = new ArrayList<>();
        int totalStacks = 0, totalDomains = 0;
        for (PageMap m : maps) {
            totalStacks += m.stack().length;
            totalDomains += m.domain().length;
        }
        int[] stacks = new int[totalStacks], domains = new int[totalDomains]; // unboxed: a value per page
        int nextDomain = 0;
        sb.append("static const char *const ").append(sym).append("page_buffer[] NUNAC_UNUSED = {");
        for (int i = 0; i < maps.size(); i++) {
            PageMap m = maps.get(i);
            sb.append(i > 0 ? ", " : "").append('"').append(comment(m.buffer())).append('"');
            pageRank[i] = m.rank();
            pageOffset[i + 1] = pageOffset[i] + m.stack().length;
            System.arraycopy(m.stack(), 0, stacks, pageOffset[i], m.stack().length);
            System.arraycopy(m.domain(), 0, domains, nextDomain, m.domain().length);
            nextDomain += m.domain().length;
            slotOffset[i + 1] = slotOffset[i] + (m.slot() == null ? 0 : m.slot().length);
            if (m.slot() != null) for (int x : m.slot()) chunkSlots.add(x);
        }
        if (maps.isEmpty()) sb.append("0");
        sb.append("};\n");
        array(sb, "int32_t", sym + "page_rank", pageRank);
        array(sb, "uint32_t", sym + "page_offset", pageOffset);
        array(sb, "int16_t", sym + "page_stack", stacks);
        array(sb, "int16_t", sym + "page_domain", domains);
        array(sb, "uint32_t", sym + "slot_offset", slotOffset);
        array(sb, "int32_t", sym + "chunk_slot", chunkSlots.stream().mapToInt(Integer::intValue).toArray());
        sb.append("#endif /* ").append(guard).append(" */\n");
    }

    /**
     * Per rank, one stream per NAR domain in use: its domain, its CU mask, how many CUs it holds and
     * how many of them were added so that no die of the mask is empty.
     */
    private static void streams(TextOut sb, CompileResult r, String sym, String mac) {
        int ranks = r.plan().ranks();
        int[] offset = new int[ranks + 1];
        List<Realised.StreamMask> all = new ArrayList<>();
        for (Realised.RankLaunch rl : r.realised().ranks()) {
            offset[rl.rank() + 1] = offset[rl.rank()] + rl.streams().size();
            all.addAll(rl.streams());
        }
        sb.append(("/* Stream masks: rank r has streams @stream_offset[r] .. @stream_offset[r+1]-1, one per NAR\n"
                + "   domain in use. Stream i serves domain @stream_domain[i] (the domain of @tb_domain) with\n"
                + "   the CU mask @stream_mask[i] of @stream_cus[i] CUs; @stream_added[i] of them were added\n"
                + "   so that the mask leaves no die without a CU (a queue masked off a whole die hangs). */\n").replace("@", sym));
        array(sb, "uint32_t", sym + "stream_offset", offset);
        array(sb, "int32_t", sym + "stream_domain", all.stream().mapToInt(Realised.StreamMask::domain).toArray());
        array(sb, "int32_t", sym + "stream_cus", all.stream().mapToInt(Realised.StreamMask::cus).toArray());
        array(sb, "int32_t", sym + "stream_added", all.stream().mapToInt(Realised.StreamMask::addedForEmptyDies).toArray());
        sb.append("static const uint32_t ").append(sym).append("stream_mask[][").append(mac).append("MASK_WORDS] NUNAC_UNUSED = {\n");
        if (all.isEmpty()) sb.append("  {0},\n");
        for (Realised.StreamMask st : all) row(sb, st.mask());
        sb.append("};\n\n");
    }

    /**
     * Which maps the target applies when a stock library launches the plan, and which stay
     * advisory: 1 for advisory. Only a modulo dispatch rule (MI300X, MI355X in SPX) fixes a
     * block's die by its launch position, and only there do nunac's mask bits follow a
     * documented per-queue CU mask; no target nunac models lets a build place pages on stacks.
     */
    private static void advisory(TextOut sb, Topology t, String sym, String mac, String masks) {
        Dispatch d = t.dispatch();
        boolean modulo = d.rule() == Dispatch.Rule.MODULO && !d.dies().isEmpty();
        String rule = d.rule().label() + (d.dies().isEmpty() ? "" : " over " + d.dies().size() + " dies");
        sb.append("/* On ").append(comment(t.name())).append(" (dispatch ").append(rule).append("), launched by a stock library:\n");
        sb.append("   grid order (").append(sym).append("grid, ").append(sym).append("tb_grid_slot): ")
                .append(modulo ? "applied: block b of a launch runs on die b mod " + d.dies().size()
                        + ", so launching the\n     threadblocks in grid order puts each on its planned die"
                        : d.rule() == Dispatch.Rule.ROUND_ROBIN ? "advisory: the scheduler prefers free CUs, so a block's launch\n     position does not fix its die"
                        : "advisory: no rule ties a block's launch position to a die").append(";\n");
        sb.append("   CU choice (").append(sym).append("tb_cu, ").append(sym).append(masks).append("): advisory: ")
                .append(modulo ? "the hardware picks the CU within the die" : "the hardware picks the CU")
                .append("; a dispatcher\n     that reads the CU or SM id (the runtime shim) applies it;\n");
        sb.append("   stream masks (").append(sym).append("stream_mask): ")
                .append(modulo ? "applied where the library's kernels run on CU-masked streams (HIP)" : "advisory: not applied on this target")
                .append(";\n");
        sb.append("   page maps (").append(sym).append("page_stack, ").append(sym)
                .append("page_domain): advisory: recorded, not applied on this target. */\n");
        define(sb, mac + "ADVISORY_GRID", modulo ? 0 : 1);
        define(sb, mac + "ADVISORY_CU", 1);
        define(sb, mac + "ADVISORY_STREAM_MASKS", modulo ? 0 : 1);
        define(sb, mac + "ADVISORY_PAGES", 1);
        sb.append('\n');
    }

    /** The first 16 hex digits of the SHA-256 of {@code text}'s UTF-8 bytes. */
    static String fingerprint(String text) {
        return hex16(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    private static String hex16(byte[] h) {
        StringBuilder out = new StringBuilder(16);
        for (int i = 0; i < 8; i++) out.append(HEX[(h[i] >>> 4) & 0xf]).append(HEX[h[i] & 0xf]);
        return out.toString();
    }

    private static void string(TextOut sb, String name, String v) {
        sb.append("#define ").append(name).append(" \"").append(comment(v)).append("\"\n");
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** {@code 0x%08xu} without a formatter: the header has a mask word per threadblock and die. */
    private static void define(TextOut sb, String name, long v) {
        sb.append("#define ").append(name).append(' ').append(v).append('\n');
    }

    private static void array(TextOut sb, String type, String name, int[] values) {
        sb.append("static const ").append(type).append(' ').append(name).append("[] NUNAC_UNUSED = {");
        if (values.length == 0) sb.append("0");
        for (int i = 0; i < values.length; i++) {
            if (i % 16 == 0) sb.ascii("\n  ");
            sb.append(values[i]);
            if (i + 1 < values.length) sb.ascii(", ");
        }
        sb.append("\n};\n\n");
    }

    static String ident(String s) {
        String id = s.replaceAll("[^A-Za-z0-9_]", "_");
        return id.isEmpty() || Character.isDigit(id.charAt(0)) ? "P" + id : id;
    }

    private static String comment(String s) {
        return s.replace("*/", "* /").replace("\"", "'").replace("\\", "/").replaceAll("[\\r\\n]", " ");
    }
}
