package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes a plan as MSCCL-IR XML in the newer executors' dialect (with {@code outofplace},
 * {@code minBytes} and {@code maxBytes}), which RCCL and the MSCCL executor load. As msccl-tools
 * does: a step waits on at most one other step, so each extra dependency becomes a {@code nop}
 * step placed just before it (and step indices shift to make room); all scratch buffers of a
 * rank become the one {@code s} buffer, one after another in declaration order. MSCCL-IR has no
 * one-sided operations, so a plan with put/get/signal/wait steps cannot be exported.
 */
public final class MscclXmlExporter {
    private static final Set<String> HEADER = Set.of("nchannels", "nchunksperloop", "outofplace", "minBytes", "maxBytes",
            "coll", "name", "proto", "ngpus", "inplace");
    private static final Pattern XML_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private MscclXmlExporter() {}

    public static String export(Plan plan) {
        refuseOneSided(plan);
        StringBuilder sb = new StringBuilder(256 + plan.stepCount() * 120);
        Map<String, String> a = plan.attributes();
        sb.append("<algo");
        attr(sb, "name", plan.name());
        attr(sb, "proto", plan.protocol().id());
        attr(sb, "nchannels", nchannels(plan));
        attr(sb, "nchunksperloop", a.containsKey("nchunksperloop") ? a.get("nchunksperloop") : String.valueOf(chunksPerLoop(plan)));
        attr(sb, "ngpus", plan.ranks());
        attr(sb, "coll", coll(plan));
        attr(sb, "inplace", plan.inplace() ? 1 : 0);
        attr(sb, "outofplace", a.getOrDefault("outofplace", plan.inplace() ? "0" : "1"));
        attr(sb, "minBytes", a.getOrDefault("minBytes", "0"));
        attr(sb, "maxBytes", a.getOrDefault("maxBytes", "0")); // 0: no upper limit
        for (Map.Entry<String, String> e : a.entrySet()) {
            if (!HEADER.contains(e.getKey()) && XML_NAME.matcher(e.getKey()).matches()) attr(sb, e.getKey(), e.getValue());
        }
        sb.append(">\n");
        for (RankPlan rp : plan.rankPlans()) gpu(sb, rp);
        sb.append("</algo>\n");
        return sb.toString();
    }

    /** The {@code nchannels} written: the plan's own value, raised to cover every threadblock's channel. */
    static int nchannels(Plan plan) {
        int maxChan = -1;
        for (RankPlan rp : plan.rankPlans()) for (Threadblock t : rp.threadblocks()) maxChan = Math.max(maxChan, t.channel());
        return Math.max(maxChan + 1, intAttr(plan.attributes(), "nchannels", 1));
    }

    /** The {@code coll} written: the collective's name, or for a custom plan the name it was imported with. */
    static String coll(Plan plan) {
        return plan.collective() == Collective.CUSTOM ? plan.attributes().getOrDefault("coll", "custom") : plan.collective().id();
    }

    /** The {@code <step>} elements a step becomes: a {@code nop} for each dependency past the first, then itself. */
    static int stepsWritten(Step s) {
        return 1 + Math.max(0, s.deps().size() - 1);
    }

    static void refuseOneSided(Plan plan) {
        Diagnostics d = new Diagnostics();
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock t : rp.threadblocks()) {
                for (Step s : t.steps()) {
                    if (s.op().oneSided() && d.errorCount() < 5) {
                        d.error(s.pos(), "rank " + rp.rank() + " threadblock " + t.id() + " step " + s.index() + ": MSCCL-IR XML has no"
                                + " one-sided '" + s.op().mnemonic() + "' step, so this plan cannot be exported to it");
                    }
                }
            }
        }
        d.throwIfErrors(ErrorKind.PLAN);
    }

    /** MSCCLang's rule: the larger of the input and output buffers. */
    private static int chunksPerLoop(Plan plan) {
        int n = 1;
        for (RankPlan rp : plan.rankPlans()) {
            n = Math.max(n, Math.max(rp.bufferChunks(Buffer.INPUT), rp.bufferChunks(Buffer.OUTPUT)));
        }
        return n;
    }

    private static void gpu(StringBuilder sb, RankPlan rp) {
        Map<String, Integer> scratchAt = new HashMap<>();
        int scratch = 0;
        for (Buffer b : rp.buffers()) {
            if (b.name().equals(Buffer.INPUT) || b.name().equals(Buffer.OUTPUT)) continue;
            scratchAt.put(b.name(), scratch);
            scratch += b.chunks();
        }
        sb.append("  <gpu");
        attr(sb, "id", rp.rank());
        attr(sb, "i_chunks", rp.bufferChunks(Buffer.INPUT));
        attr(sb, "o_chunks", rp.bufferChunks(Buffer.OUTPUT));
        attr(sb, "s_chunks", scratch);
        sb.append(">\n");
        // New index of every step once the nops are in: extra deps before a step push it down.
        Map<Dep, Integer> index = new HashMap<>();
        for (Threadblock t : rp.threadblocks()) {
            int next = 0;
            for (Step s : t.steps()) {
                next += stepsWritten(s);
                index.put(new Dep(t.id(), s.index()), next - 1);
            }
        }
        for (Threadblock t : rp.threadblocks()) {
            sb.append("    <tb");
            attr(sb, "id", t.id());
            attr(sb, "send", t.sendPeer());
            attr(sb, "recv", t.recvPeer());
            attr(sb, "chan", t.channel());
            sb.append(">\n");
            int s = 0;
            for (Step st : t.steps()) {
                List<Dep> deps = st.deps();
                for (int i = 0; i + 1 < deps.size(); i++) step(sb, s++, "nop", null, null, scratchAt, 0, deps.get(i), false, index);
                step(sb, s++, st.op().mnemonic(), st.src(), st.dst(), scratchAt, st.count(),
                        deps.isEmpty() ? null : deps.get(deps.size() - 1), st.hasDep(), index);
            }
            sb.append("    </tb>\n");
        }
        sb.append("  </gpu>\n");
    }

    private static void step(StringBuilder sb, int s, String type, ChunkRef src, ChunkRef dst, Map<String, Integer> scratchAt,
                             int cnt, Dep dep, boolean hasDep, Map<Dep, Integer> index) {
        // MSCCLang fills an operand a step does not use with the one it does; nops get -1.
        ChunkRef sr = src != null ? src : dst;
        ChunkRef ds = dst != null ? dst : src;
        sb.append("      <step");
        attr(sb, "s", s);
        attr(sb, "type", type);
        attr(sb, "srcbuf", sr == null ? "i" : letter(sr));
        attr(sb, "srcoff", sr == null ? -1 : offset(sr, scratchAt));
        attr(sb, "dstbuf", ds == null ? "o" : letter(ds));
        attr(sb, "dstoff", ds == null ? -1 : offset(ds, scratchAt));
        attr(sb, "cnt", cnt);
        attr(sb, "depid", dep == null ? -1 : dep.tb());
        attr(sb, "deps", dep == null ? -1 : index.getOrDefault(dep, dep.step()));
        attr(sb, "hasdep", hasDep ? 1 : 0);
        sb.append("/>\n");
    }

    private static String letter(ChunkRef c) {
        return switch (c.buffer()) {
            case Buffer.INPUT -> "i";
            case Buffer.OUTPUT -> "o";
            default -> "s";
        };
    }

    private static int offset(ChunkRef c, Map<String, Integer> scratchAt) {
        return c.index() + (c.buffer().equals(Buffer.INPUT) || c.buffer().equals(Buffer.OUTPUT) ? 0
                : scratchAt.getOrDefault(c.buffer(), 0));
    }

    private static int intAttr(Map<String, String> a, String k, int dflt) {
        try {
            return Integer.parseInt(a.getOrDefault(k, String.valueOf(dflt)));
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private static void attr(StringBuilder sb, String name, Object value) {
        sb.append(' ').append(name).append("=\"");
        String v = String.valueOf(value);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                default -> {
                    if (c < 0x20) sb.append("&#").append((int) c).append(';');
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
