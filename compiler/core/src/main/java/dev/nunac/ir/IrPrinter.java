package dev.nunac.ir;

import java.util.Map;
import java.util.function.Consumer;

/**
 * The stable text form of the IR ({@code nunac ir}, {@code --dump-after}); documented in
 * docs/ir.md. One line per header item, buffer, threadblock and step; no absolute paths.
 */
public final class IrPrinter {
    private IrPrinter() {}

    public static String print(Plan p) {
        StringBuilder all = new StringBuilder(64 + p.stepCount() * 40);
        print(p, all::append);
        return all.toString();
    }

    /**
     * The same text in pieces, one per rank after the header, handed to {@code sink} in order: a
     * reader that only hashes or writes the text (the header's plan fingerprint) never holds all
     * of a large plan's text at once.
     */
    public static void print(Plan p, Consumer<CharSequence> sink) {
        StringBuilder sb = new StringBuilder(4096);
        sb.append("plan \"").append(p.name()).append("\"\n");
        sb.append("  collective ").append(p.collective().id())
                .append("  ranks ").append(p.ranks())
                .append("  chunk_factor ").append(p.chunkFactor())
                .append("  instances ").append(p.instances())
                .append("  inplace ").append(p.inplace())
                .append("  protocol ").append(p.protocol().id())
                .append("  format ").append(p.format().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
        for (Map.Entry<String, String> e : p.attributes().entrySet()) {
            sb.append("  attribute ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
        }
        for (RankPlan rp : p.rankPlans()) {
            sink.accept(sb);
            sb.setLength(0);
            sb.append("rank ").append(rp.rank()).append('\n');
            for (Buffer b : rp.buffers()) {
                sb.append("  buffer ").append(b.name()).append(' ').append(b.chunks()).append('\n');
            }
            for (Threadblock tb : rp.threadblocks()) {
                sb.append("  tb ").append(tb.id())
                        .append(" send ").append(tb.sendPeer())
                        .append(" recv ").append(tb.recvPeer())
                        .append(" chan ").append(tb.channel()).append('\n');
                for (Step s : tb.steps()) appendStep(sb, rp.rank(), s);
            }
        }
        sink.accept(sb);
    }

    private static void appendStep(StringBuilder sb, int rank, Step s) {
        sb.append("    ").append(s.index()).append(' ').append(s.op().mnemonic());
        if (s.peer() >= 0) sb.append(" peer ").append(s.peer());
        if (s.channel() >= 0) sb.append(" chan ").append(s.channel());
        if (s.src() != null) sb.append(" src ").append(ref(rank, s.src()));
        if (s.dst() != null) sb.append(" dst ").append(ref(rank, s.dst()));
        if (!s.deps().isEmpty()) {
            sb.append(" deps");
            for (Dep d : s.deps()) sb.append(' ').append(d);
        }
        if (s.hasDep()) sb.append(" hasdep");
        sb.append('\n');
    }

    /** Local chunks print without their rank; remote ones with it. */
    public static String ref(int rank, ChunkRef c) {
        String body = c.buffer() + "[" + c.index() + (c.count() == 1 ? "" : "+" + c.count()) + "]";
        return c.rank() == rank ? body : "r" + c.rank() + ":" + body;
    }
}
