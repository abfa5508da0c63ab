package dev.nunac.frontend.xml;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.Text;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Step;
import java.util.List;
import java.util.Map;

/**
 * One {@code <step>} to an IR step. Only the operands the step type uses are kept (a send has a
 * source only, a receive a destination only, {@code rrc} both): MSCCLang writes the peer's
 * location into the unused one, which means nothing to the executor. Offset -1 is "no operand".
 */
final class StepReader {
    static final Map<String, OpKind> TYPES = Map.of("s", OpKind.SEND, "r", OpKind.RECV, "rcs", OpKind.RECV_COPY_SEND,
            "rrs", OpKind.RECV_REDUCE_SEND, "rrc", OpKind.RECV_REDUCE_COPY, "rrcs", OpKind.RECV_REDUCE_COPY_SEND,
            "cpy", OpKind.COPY, "re", OpKind.REDUCE, "nop", OpKind.NOP, "ra", OpKind.RESIDUAL_ADD);
    static final String TYPE_LIST = "s, r, rcs, rrs, rrc, rrcs, cpy, re, nop, ra";

    private StepReader() {}

    /** The step at position {@code index} of its threadblock on {@code rank}; null after an error. */
    static Step read(XmlElement e, int rank, int index, Diagnostics d) {
        Attrs a = new Attrs(e, d);
        int before = d.errorCount();
        int s = a.integer("s");
        String type = a.string("type");
        String srcbuf = a.string("srcbuf");
        int srcoff = a.integer("srcoff");
        String dstbuf = a.string("dstbuf");
        int dstoff = a.integer("dstoff");
        int cnt = a.integer("cnt", 0);
        int depid = a.integer("depid");
        int deps = a.integer("deps");
        boolean hasdep = a.flag("hasdep");
        if (d.errorCount() > before) return null;
        OpKind op = TYPES.get(type);
        if (op == null) {
            d.error(e.pos(), "unknown step type '" + Text.shown(type) + "' (expected one of " + TYPE_LIST + ")");
            return null;
        }
        if (s != index) d.error(e.pos(), "step index " + s + " out of order: expected " + index);
        if (op != OpKind.NOP && cnt < 1) d.error(e.pos(), "cnt of a '" + type + "' step must be at least 1, found " + cnt);
        String src = buffer(e, "srcbuf", srcbuf, d);
        String dst = buffer(e, "dstbuf", dstbuf, d);
        offset(e, "srcoff", srcoff, d);
        offset(e, "dstoff", dstoff, d);
        List<Dep> depList = List.of();
        if (depid >= 0 && deps >= 0) depList = List.of(new Dep(depid, deps));
        else if (depid != -1 || deps != -1) {
            d.error(e.pos(), "depid and deps must both be -1 (no dependency) or both name a step, found depid=" + depid
                    + " deps=" + deps);
        }
        ChunkRef srcRef = op.readsSrc ? operand(e, type, "source", "srcoff", rank, src, srcoff, cnt, d) : null;
        ChunkRef dstRef = op.writesDst ? operand(e, type, "destination", "dstoff", rank, dst, dstoff, cnt, d) : null;
        if (d.errorCount() > before) return null;
        return new Step(index, op, srcRef, dstRef, -1, depList, hasdep, e.pos());
    }

    private static String buffer(XmlElement e, String attr, String letter, Diagnostics d) {
        String name = switch (letter) {
            case "i" -> Buffer.INPUT;
            case "o" -> Buffer.OUTPUT;
            case "s" -> Buffer.SCRATCH;
            default -> null;
        };
        if (name == null) d.error(e.pos(), "attribute '" + attr + "' of <step> must be i, o or s, found '" + Text.shown(letter) + "'");
        return name;
    }

    private static void offset(XmlElement e, String attr, int off, Diagnostics d) {
        if (off < -1) d.error(e.pos(), "attribute '" + attr + "' of <step> must be -1 or an offset >= 0, found " + off);
    }

    private static ChunkRef operand(XmlElement e, String type, String what, String attr, int rank, String buf, int off,
                                    int cnt, Diagnostics d) {
        if (buf == null || off < -1 || cnt < 1) return null; // already reported
        if (off == -1) {
            d.error(e.pos(), "a '" + type + "' step needs a " + what + ", but " + attr + " is -1");
            return null;
        }
        return new ChunkRef(rank, buf, off, cnt);
    }
}
