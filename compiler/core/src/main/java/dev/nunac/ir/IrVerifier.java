package dev.nunac.ir;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import java.util.List;

/**
 * Structural well-formedness of a plan: what every pass may assume. Run after the front end
 * and, under {@code -Dnunac.verify=true} (always in tests), after every pass. Semantic checks
 * (deadlock, the collective's postcondition) belong to the checker pass.
 */
public final class IrVerifier {
    private IrVerifier() {}

    public static Diagnostics verify(Plan plan) {
        Diagnostics d = new Diagnostics();
        verify(plan, d);
        return d;
    }

    public static void verify(Plan plan, Diagnostics d) {
        if (plan.ranks() < 1) d.error(plan.pos(), "a plan needs at least one rank, found " + plan.ranks());
        if (plan.rankPlans().size() != plan.ranks()) {
            d.error(plan.pos(), "plan declares " + plan.ranks() + " ranks but describes " + plan.rankPlans().size());
            return;
        }
        for (int r = 0; r < plan.ranks(); r++) {
            RankPlan rp = plan.rank(r);
            if (rp.rank() != r) d.error(plan.pos(), "rank " + rp.rank() + " is listed in position " + r);
            for (int t = 0; t < rp.threadblocks().size(); t++) verifyTb(plan, rp, rp.threadblocks().get(t), t, d);
        }
    }

    private static void verifyTb(Plan plan, RankPlan rp, Threadblock tb, int position, Diagnostics d) {
        int r = rp.rank();
        boolean fineTb = tb.id() == position && tb.channel() >= 0 && (tb.sendPeer() == -1 || tb.sendPeer() >= 0
                && tb.sendPeer() < plan.ranks() && tb.sendPeer() != r) && (tb.recvPeer() == -1 || tb.recvPeer() >= 0
                && tb.recvPeer() < plan.ranks() && tb.recvPeer() != r);
        boolean fineSteps = true;
        for (int i = 0; i < tb.steps().size() && fineSteps; i++) fineSteps = fine(plan, rp, tb, tb.steps().get(i), i, r);
        if (fineTb && fineSteps) return; // nothing to report: the messages' text is never built
        String where = "rank " + r + ", threadblock " + tb.id();
        if (tb.id() != position) d.error(tb.pos(), where + ": threadblock ids must be dense 0.." +
                (rp.threadblocks().size() - 1) + "; found id " + tb.id() + " in position " + position);
        checkPeer(plan, r, tb.sendPeer(), tb.pos(), where + ": send peer", d);
        checkPeer(plan, r, tb.recvPeer(), tb.pos(), where + ": recv peer", d);
        if (tb.channel() < 0) d.error(tb.pos(), where + ": negative channel " + tb.channel());
        for (int i = 0; i < tb.steps().size(); i++) {
            Step s = tb.steps().get(i);
            if (fine(plan, rp, tb, s, i, r)) continue; // a well-formed step needs no message text
            String sw = where + ", step " + i + " (" + s.op().mnemonic() + ")";
            if (s.index() != i) d.error(s.pos(), sw + ": step index " + s.index() + " out of order; expected " + i);
            if (s.op().sends && tb.sendPeer() < 0) d.error(s.pos(), sw + ": sends, but the threadblock has no send peer");
            if (s.op().receives && tb.recvPeer() < 0) d.error(s.pos(), sw + ": receives, but the threadblock has no recv peer");
            if (s.op().oneSided()) checkPeer(plan, r, s.peer(), s.pos(), sw + ": peer", d);
            if (s.channel() < -1) d.error(s.pos(), sw + ": negative channel " + s.channel());
            boolean needsSrc = s.op().readsSrc;
            boolean needsDst = s.op().writesDst;
            if (needsSrc && s.src() == null) d.error(s.pos(), sw + ": missing source chunk");
            if (needsDst && s.dst() == null) d.error(s.pos(), sw + ": missing destination chunk");
            int srcRank = s.op() == OpKind.GET || s.op() == OpKind.GET_REDUCE ? s.peer() : r;
            int dstRank = s.op() == OpKind.PUT ? s.peer() : r;
            if (s.src() != null) checkRef(plan, s.src(), srcRank, s.pos(), sw + ": source", d);
            if (s.dst() != null) checkRef(plan, s.dst(), dstRank, s.pos(), sw + ": destination", d);
            if (s.src() != null && s.dst() != null && s.src().count() != s.dst().count()) {
                d.error(s.pos(), sw + ": source has " + s.src().count() + " chunks but destination has " + s.dst().count());
            }
            for (Dep dep : s.deps()) {
                if (dep.tb() < 0 || dep.tb() >= rp.threadblocks().size()) {
                    d.error(s.pos(), sw + ": depends on threadblock " + dep.tb() + ", which rank " + r + " does not have");
                } else if (dep.tb() == tb.id()) {
                    d.error(s.pos(), sw + ": depends on its own threadblock");
                } else if (dep.step() < 0 || dep.step() >= rp.tb(dep.tb()).steps().size()) {
                    d.error(s.pos(), sw + ": depends on step " + dep.step() + " of threadblock " + dep.tb()
                            + ", which has " + rp.tb(dep.tb()).steps().size() + " steps");
                }
            }
        }
    }

    /**
     * Whether {@link #verifyTb} would report nothing about step {@code s}: checked without building
     * the messages' text, which for every step of a large plan cost more than the checks.
     */
    private static boolean fine(Plan plan, RankPlan rp, Threadblock tb, Step s, int i, int r) {
        if (s.index() != i || s.channel() < -1) return false;
        if (s.op().sends && tb.sendPeer() < 0 || s.op().receives && tb.recvPeer() < 0) return false;
        if (s.op().oneSided() && s.peer() != -1 && (s.peer() < 0 || s.peer() >= plan.ranks() || s.peer() == r)) return false;
        if (s.op().readsSrc && s.src() == null || s.op().writesDst && s.dst() == null) return false;
        int srcRank = s.op() == OpKind.GET || s.op() == OpKind.GET_REDUCE ? s.peer() : r;
        int dstRank = s.op() == OpKind.PUT ? s.peer() : r;
        if (s.src() != null && !fineRef(plan, s.src(), srcRank) || s.dst() != null && !fineRef(plan, s.dst(), dstRank)) return false;
        if (s.src() != null && s.dst() != null && s.src().count() != s.dst().count()) return false;
        List<Dep> deps = s.deps();
        for (int k = 0; k < deps.size(); k++) { // indexed: C1 would make an iterator per step
            Dep dep = deps.get(k);
            if (dep.tb() < 0 || dep.tb() >= rp.threadblocks().size() || dep.tb() == tb.id()) return false;
            if (dep.step() < 0 || dep.step() >= rp.tb(dep.tb()).steps().size()) return false;
        }
        return true;
    }

    /** Whether {@link #checkRef} would report nothing. */
    private static boolean fineRef(Plan plan, ChunkRef c, int expectedRank) {
        if (c.rank() != expectedRank) return false;
        if (c.rank() < 0 || c.rank() >= plan.ranks()) return true;
        RankPlan rp = plan.rank(c.rank());
        if (!rp.hasBuffer(c.buffer()) && !c.buffer().equals(Buffer.INPUT) && !c.buffer().equals(Buffer.OUTPUT)) return false;
        int cap = BufferLayout.capacity(plan, c.rank(), c.buffer());
        return c.index() >= 0 && (long) c.index() + c.count() <= cap;
    }

    private static void checkPeer(Plan plan, int rank, int peer, SourcePos pos, String what, Diagnostics d) {
        if (peer == -1) return;
        if (peer < 0 || peer >= plan.ranks()) d.error(pos, what + " " + peer + " is not a rank (0.." + (plan.ranks() - 1) + ")");
        else if (peer == rank) d.error(pos, what + " is the rank itself (" + rank + ")");
    }

    private static void checkRef(Plan plan, ChunkRef c, int expectedRank, SourcePos pos, String what, Diagnostics d) {
        if (c.rank() != expectedRank) {
            d.error(pos, what + " " + c + " is on rank " + c.rank() + ", expected rank " + expectedRank);
            return;
        }
        if (c.rank() < 0 || c.rank() >= plan.ranks()) return;
        RankPlan rp = plan.rank(c.rank());
        if (rp.buffer(c.buffer()).isEmpty() && !c.buffer().equals(Buffer.INPUT) && !c.buffer().equals(Buffer.OUTPUT)) {
            d.error(pos, what + " " + c + ": rank " + c.rank() + " has no buffer '" + c.buffer() + "'");
            return;
        }
        int cap = BufferLayout.capacity(plan, c.rank(), c.buffer());
        if (c.index() < 0 || (long) c.index() + c.count() > cap) {
            d.error(pos, what + " " + c + " is out of bounds: " + c.buffer() + " has " + cap + " chunks on rank " + c.rank());
        }
    }
}
