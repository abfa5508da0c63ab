package dev.nunac.emit;

import dev.nunac.driver.CompileResult;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferLayout;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Postconditions;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import dev.nunac.ir.Transfers;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.ir.TbNumbering;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.realise.Realised;
import dev.nunac.topology.ComputeUnit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * launch.txt: everything the runtime shim needs to execute a compiled plan, in a line-oriented
 * text form that C parses with a tokenizer (docs/runtime.md). Each line is a keyword followed by
 * {@code key=value} tokens; lists are comma-separated, {@code -} is "none". Operands are already
 * resolved through in-place aliasing to {@code rank:storage:index:count}, and every two-sided
 * step names its partner from {@link Transfers}, so the runtime needs no IR knowledge.
 */
public final class LaunchTable {
    public static final int VERSION = 1;
    public static final String MAGIC = "nunart-launch";

    private LaunchTable() {}

    public static String emit(CompileResult r) {
        Parts p = parts(r);
        StringBuilder sb = new StringBuilder();
        p.head(sb);
        for (int k = 0; k < r.plan().ranks(); k++) p.rank(sb, k);
        line(sb, "end");
        return sb.toString();
    }

    /** What every rank's block needs, computed once: a per-rank output writes ranks one at a time. */
    public static Parts parts(CompileResult r) {
        return new Parts(r);
    }

    /**
     * The launch table's pieces. {@link #emit(int)} is rank r's table of a per-rank output: the
     * lines before the first rank, then {@code part rank=R}, then that rank's block alone. Its
     * steps still name their partners on other ranks; the runtime loads such a table for the
     * rank's placement (grid order, streams, CUs) and does not execute it.
     */
    public static final class Parts {
        private final CompileResult r;
        private final Plan plan;
        private final Placement pl;
        private final Transfers tr;
        private final List<Integer> dieOrder;
        private final Map<String, PageMap> pages = new HashMap<>();
        private final List<Map<String, Integer>> storageIds = new ArrayList<>();
        private final List<List<ChunkSpace.Storage>> storagesOf = new ArrayList<>();
        private final TbNumbering tbs;

        private Parts(CompileResult r) {
            this.r = r;
            this.plan = r.plan();
            this.pl = r.placement();
            this.tr = Transfers.of(plan);
            // Dies are numbered among those that hold compute units (XCDs), as the device counts them.
            TreeSet<Integer> dies = new TreeSet<>();
            for (ComputeUnit cu : r.topology().cus()) dies.add(cu.die());
            this.dieOrder = new ArrayList<>(dies);
            for (PageMap pm : pl.pages()) pages.put(pm.rank() + ":" + pm.buffer(), pm);
            // Storage ids are positions among the rank's storages, in ChunkSpace order.
            for (int k = 0; k < plan.ranks(); k++) {
                storageIds.add(new HashMap<>());
                storagesOf.add(new ArrayList<>());
            }
            for (ChunkSpace.Storage s : r.accesses().space().storages()) {
                storageIds.get(s.rank()).put(s.buffer(), storagesOf.get(s.rank()).size());
                storagesOf.get(s.rank()).add(s);
            }
            tbs = TbNumbering.of(plan);
        }

        /** Rank {@code rank}'s table of a per-rank output. */
        public String emit(int rank) {
            StringBuilder sb = new StringBuilder();
            head(sb);
            line(sb, "part rank=" + rank);
            rank(sb, rank);
            line(sb, "end");
            return sb.toString();
        }

        private void head(StringBuilder sb) {
            line(sb, MAGIC + " " + VERSION);
            line(sb, "plan name=" + token(plan.name()) + " collective=" + plan.collective().id() + " ranks=" + plan.ranks()
                    + " chunk_factor=" + plan.effectiveChunkFactor() + " inplace=" + (plan.inplace() ? 1 : 0)
                    + " root=" + plan.attributes().getOrDefault("root", "0") + " protocol=" + plan.protocol().id());
            line(sb, "device topology=" + token(r.topology().name()) + " cus=" + r.topology().cus().size()
                    + " dies=" + dieOrder.size() + " stacks=" + r.topology().stacks().size()
                    + " mask_words=" + r.realised().maskWords() + " dispatch=" + token(r.realised().dispatch()));
            line(sb, "placement policy=" + pl.policy().id() + " chunk_bytes=" + pl.chunkBytes() + " page_bytes=" + pl.pageBytes());
        }

        private void rank(StringBuilder sb, int rank) {
            Realised.RankLaunch rl = r.realised().ranks().get(rank);
            RankPlan rp = plan.rank(rank);
            List<ChunkSpace.Storage> sts = storagesOf.get(rank);
            List<Postconditions.Run> expected = Postconditions.of(plan, rank);
            line(sb, "rank id=" + rank + " storages=" + sts.size() + " threadblocks=" + rp.threadblocks().size()
                    + " grid=" + rl.grid().length + " streams=" + rl.streams().size() + " expects=" + expected.size());
            for (int i = 0; i < sts.size(); i++) {
                ChunkSpace.Storage s = sts.get(i);
                PageMap pm = pages.get(rank + ":" + s.buffer());
                int[] stacks = pm == null ? new int[0] : pm.stack();
                line(sb, "storage rank=" + rank + " id=" + i + " name=" + token(s.buffer()) + " chunks=" + s.chunks()
                        + " pages=" + stacks.length + " stacks=" + list(stacks));
            }
            for (String b : List.of(Buffer.INPUT, Buffer.OUTPUT)) {
                int cap = BufferLayout.capacity(plan, rank, b);
                BufferLayout.Slot slot = BufferLayout.resolve(plan, rank, b, 0);
                Integer sid = storageIds.get(rank).get(slot.buffer());
                if (cap <= 0 || sid == null) continue;
                line(sb, "view rank=" + rank + " buffer=" + b + " storage=" + sid + " offset=" + slot.index() + " chunks=" + cap);
            }
            // the postcondition, as the checker proved it: the runtime checks a run's output against it
            for (Postconditions.Run e : expected) {
                line(sb, "expect rank=" + rank + " out=" + e.index() + " count=" + e.count() + " op=" + (e.reduced() ? "sum" : "copy")
                        + " src=" + (e.reduced() ? "*" : String.valueOf(e.srcRank())) + ":" + e.srcIndex());
            }
            for (Threadblock tb : rp.threadblocks()) {
                int g = tbs.global(rank, tb.id());
                int cu = pl.cuOfTb()[g];
                line(sb, "tb rank=" + rank + " id=" + tb.id() + " cu=" + cu + " die=" + dieOrder.indexOf(r.topology().cus().get(cu).die())
                        + " slot=" + rl.slotOfTb()[tb.id()] + " domain=" + pl.domainOfTb()[g] + " group=" + pl.groupOfTb()[g]
                        + " send=" + tb.sendPeer() + " recv=" + tb.recvPeer() + " channel=" + tb.channel()
                        + " mask=" + Realised.hex(rl.tbMasks().get(tb.id())) + " steps=" + tb.steps().size());
                for (Step s : tb.steps()) {
                    Transfers.Endpoint self = new Transfers.Endpoint(rank, tb.id(), s.index());
                    line(sb, "step rank=" + rank + " tb=" + tb.id() + " id=" + s.index() + " op=" + s.op().mnemonic()
                            + " src=" + operand(plan, storageIds, s.src()) + " dst=" + operand(plan, storageIds, s.dst())
                            + " peer=" + s.peer() + " deps=" + deps(s.deps())
                            + " from=" + endpoint(tr.senderOf(self)) + " to=" + endpoint(tr.receiverOf(self)));
                }
            }
            for (Realised.StreamMask st : rl.streams()) {
                line(sb, "stream rank=" + rank + " domain=" + st.domain() + " cus=" + st.cus()
                        + " added=" + st.addedForEmptyDies() + " mask=" + Realised.hex(st.mask()));
            }
            line(sb, "grid rank=" + rank + " slots=" + list(rl.grid()));
        }
    }

    private static void line(StringBuilder sb, String s) {
        sb.append(s).append('\n');
    }

    /** Names go into one token: whitespace and the separators become underscores. */
    static String token(String s) {
        if (s == null || s.isEmpty()) return "-";
        return s.replaceAll("[\\s=,:]", "_");
    }

    private static String list(int[] xs) {
        if (xs.length == 0) return "-";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < xs.length; i++) sb.append(i == 0 ? "" : ",").append(xs[i]);
        return sb.toString();
    }

    private static String operand(Plan plan, List<Map<String, Integer>> storageIds, ChunkRef c) {
        if (c == null) return "-";
        // Aliasing is an offset per buffer, so a contiguous range stays contiguous.
        BufferLayout.Slot slot = BufferLayout.resolve(plan, c.rank(), c.buffer(), c.index());
        Integer sid = storageIds.get(c.rank()).get(slot.buffer());
        if (sid == null) throw new IllegalStateException("no storage for " + c);
        return c.rank() + ":" + sid + ":" + slot.index() + ":" + c.count();
    }

    private static String deps(List<Dep> deps) {
        if (deps.isEmpty()) return "-";
        StringBuilder sb = new StringBuilder();
        for (Dep d : deps) sb.append(sb.length() == 0 ? "" : ",").append(d.tb()).append(':').append(d.step());
        return sb.toString();
    }

    private static String endpoint(Transfers.Endpoint e) {
        return e == null ? "-" : e.rank() + ":" + e.tb() + ":" + e.step();
    }
}
