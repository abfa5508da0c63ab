package dev.nunac.emit;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What RCCL's MSCCL parser refuses in an MSCCL-IR file, checked on the plan as it will be
 * written (nop steps for extra dependencies counted, padding threadblocks included), so that a
 * file nunac writes for stock RCCL is one RCCL loads. The numbers are RCCL's compile-time
 * constants ({@code msccl_struct.h}, {@code msccl_parser.h}); its parser rejects a file that
 * breaks one, and that file's algorithm is then not available at run time.
 */
public final class RcclLimits {
    /** {@code MSCCL_MAX_NUM_STEPS}: step indices of one threadblock are below it. */
    public static final int MAX_STEPS_PER_THREADBLOCK = 64;
    /** {@code MSCCL_MAX_NUM_THREAD_BLOCKS}: threadblock ids of one GPU are below it. */
    public static final int MAX_THREADBLOCKS_PER_GPU = 64;
    /** {@code MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL}: threadblocks that send (or that receive) on one channel. */
    public static final int MAX_PEERS_PER_CHANNEL = 32;
    /** {@code MSCCL_MAX_COUNT}: a step's {@code cnt} is below it. */
    public static final int MAX_COUNT = 72;
    /**
     * {@code MAXCHANNELS} as RCCL's MSCCL parser compares it: a threadblock's {@code chan} is at
     * most this. 32 in the RCCL sources read; a build with more channels accepts more, so this is
     * the safe side.
     */
    public static final int MAX_CHANNEL = 32;
    /** {@code MSCCL_MAX_NODES}: elements one rank reads (the algo, every gpu, its own tbs and steps), below it. */
    public static final int MAX_NODES = 4096;
    /** {@code MSCCL_MAX_STR_LEN}: longest attribute value. */
    public static final int MAX_STRING = 255;
    /** The {@code coll} values RCCL's parser accepts. */
    public static final Set<String> COLLECTIVES = Set.of("allreduce", "allgather", "reducescatter", "alltoall", "alltoallv",
            "reduce", "broadcast", "send", "recv", "gather", "scatter");

    private RcclLimits() {}

    /** Throws a PLAN error naming the first limit {@code plan} breaks, written as MSCCL-IR; {@code what} names the output. */
    public static void check(Plan plan, String what) {
        String coll = MscclXmlExporter.coll(plan);
        if (!COLLECTIVES.contains(coll)) {
            refuse(plan, "collective '" + coll + "' is not one RCCL's MSCCL parser accepts (" + String.join(", ",
                    new java.util.TreeSet<>(COLLECTIVES)) + ")", what);
        }
        if (plan.name().length() > MAX_STRING - 1) {
            refuse(plan, "the plan's name is " + plan.name().length() + " characters; RCCL reads attribute values of at most "
                    + (MAX_STRING - 1), what);
        }
        for (RankPlan rp : plan.rankPlans()) {
            int r = rp.rank();
            List<Threadblock> tbs = rp.threadblocks();
            if (tbs.size() > MAX_THREADBLOCKS_PER_GPU) {
                int empty = 0;
                for (Threadblock t : tbs) if (t.steps().isEmpty()) empty++;
                refuse(plan, "rank " + r + " needs " + tbs.size() + " threadblocks" + (empty > 0 ? " (" + empty
                        + " of them empty padding)" : "") + "; RCCL launches at most " + MAX_THREADBLOCKS_PER_GPU
                        + " per GPU (MSCCL_MAX_NUM_THREAD_BLOCKS)", what);
            }
            TreeMap<Integer, int[]> peersOfChannel = new TreeMap<>();
            long nodes = 1L + plan.ranks() + tbs.size();
            for (Threadblock t : tbs) {
                if (t.channel() < 0 || t.channel() > MAX_CHANNEL) {
                    refuse(plan, "rank " + r + " threadblock " + t.id() + " is on channel " + t.channel()
                            + "; RCCL accepts channels 0.." + MAX_CHANNEL, what);
                }
                int[] peers = peersOfChannel.computeIfAbsent(t.channel(), c -> new int[2]);
                if (t.sendPeer() >= 0) peers[0]++;
                if (t.recvPeer() >= 0) peers[1]++;
                int written = 0;
                for (Step s : t.steps()) {
                    written += MscclXmlExporter.stepsWritten(s);
                    if (s.op() != OpKind.NOP && s.count() >= MAX_COUNT) {
                        refuse(plan, "rank " + r + " threadblock " + t.id() + " step " + s.index() + " moves " + s.count()
                                + " chunks; RCCL accepts a cnt below " + MAX_COUNT + " (MSCCL_MAX_COUNT)", what);
                    }
                }
                if (written > MAX_STEPS_PER_THREADBLOCK) {
                    refuse(plan, "rank " + r + " threadblock " + t.id() + " has " + written + " steps as written"
                            + (written > t.steps().size() ? " (" + (written - t.steps().size()) + " nops carrying extra dependencies)" : "")
                            + "; RCCL accepts at most " + MAX_STEPS_PER_THREADBLOCK + " per threadblock (MSCCL_MAX_NUM_STEPS)", what);
                }
                nodes += written;
            }
            for (var e : peersOfChannel.entrySet()) {
                for (int k = 0; k < 2; k++) {
                    if (e.getValue()[k] > MAX_PEERS_PER_CHANNEL) {
                        refuse(plan, "rank " + r + " has " + e.getValue()[k] + " threadblocks that " + (k == 0 ? "send" : "receive")
                                + " on channel " + e.getKey() + "; RCCL accepts at most " + MAX_PEERS_PER_CHANNEL
                                + " per channel (MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL)", what);
                    }
                }
            }
            if (nodes >= MAX_NODES) {
                refuse(plan, "rank " + r + " reads " + nodes + " XML elements (the algo, " + plan.ranks() + " gpus, its threadblocks"
                        + " and steps); RCCL's parser holds fewer than " + MAX_NODES + " (MSCCL_MAX_NODES)", what);
            }
        }
    }

    private static void refuse(Plan plan, String why, String what) {
        throw new CompileException(ErrorKind.PLAN, plan.pos(), what + ": " + why + ", so RCCL would not load it");
    }
}
