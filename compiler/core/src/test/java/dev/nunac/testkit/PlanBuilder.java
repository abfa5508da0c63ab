package dev.nunac.testkit;

import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Dep;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.Protocol;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a plan in a few lines for the passes' unit tests, instead of the IR records' positional
 * constructors. Chunks are written as {@code nunac ir} prints them: {@code input[0]},
 * {@code output[2+2]} (two chunks), {@code r1:output[0]} (on rank 1). A step's {@code after}
 * waits on a step of another threadblock of its rank; the {@code hasdep} flags follow from the
 * dependencies when the plan is built.
 *
 * <pre>
 * Plan p = PlanBuilder.of(Collective.ALLGATHER, 2).inplace()
 *         .rank(0).tb().sendTo(1).recvFrom(1).send("input[0]").recv("output[1]").done()
 *         .rank(1).tb().sendTo(0).recvFrom(0).send("input[0]").recv("output[0]").done()
 *         .build();
 * </pre>
 */
public final class PlanBuilder {
    private final Collective collective;
    private final int ranks;
    private String name = "test";
    private int chunkFactor = 1;
    private boolean inplace;
    private Protocol protocol = Protocol.SIMPLE;
    private final Map<String, Integer> buffers = new LinkedHashMap<>();
    private final TreeMap<String, String> attributes = new TreeMap<>();
    private final List<List<Tb>> tbs = new ArrayList<>();

    private PlanBuilder(Collective collective, int ranks) {
        this.collective = collective;
        this.ranks = ranks;
        for (int r = 0; r < ranks; r++) tbs.add(new ArrayList<>());
    }

    /** An empty plan of {@code ranks} ranks, chunk factor 1, out of place, Simple protocol. */
    public static PlanBuilder of(Collective collective, int ranks) {
        return new PlanBuilder(collective, ranks);
    }

    /**
     * The direct all-gather: on every rank, one threadblock per peer sends the rank's input chunk
     * to the peer's output and receives the peer's chunk in turn; in place, so each rank's own
     * chunk is already in its output. Threadblock t of rank r talks to the t-th other rank.
     */
    public static Plan directAllgather(int ranks) {
        PlanBuilder b = of(Collective.ALLGATHER, ranks).name("allgather_direct").inplace();
        for (int r = 0; r < ranks; r++) {
            RankBuilder rb = b.rank(r);
            for (int p = 0; p < ranks; p++) {
                if (p != r) rb.tb().sendTo(p).recvFrom(p).send("input[0]").recv("output[" + p + "]");
            }
        }
        return b.build();
    }

    /**
     * The one-sided all-gather of MSCCL++ scale-up plans: each rank puts its input chunk into
     * every peer's output, signals the peer and waits for the peer's signal; in place.
     */
    public static Plan oneSidedAllgather(int ranks) {
        PlanBuilder b = of(Collective.ALLGATHER, ranks).name("allgather_put").inplace();
        for (int r = 0; r < ranks; r++) {
            RankBuilder rb = b.rank(r);
            for (int p = 0; p < ranks; p++) {
                if (p != r) rb.tb().put(p, "input[0]", "output[" + r + "]").signal(p).await(p);
            }
        }
        return b.build();
    }

    public PlanBuilder name(String n) {
        name = n;
        return this;
    }

    public PlanBuilder chunkFactor(int c) {
        chunkFactor = c;
        return this;
    }

    public PlanBuilder inplace() {
        inplace = true;
        return this;
    }

    public PlanBuilder protocol(Protocol p) {
        protocol = p;
        return this;
    }

    /** A buffer of {@code chunks} chunks on every rank; input and output default to the collective's sizes. */
    public PlanBuilder buffer(String buffer, int chunks) {
        buffers.put(buffer, chunks);
        return this;
    }

    public PlanBuilder attribute(String key, String value) {
        attributes.put(key, value);
        return this;
    }

    /** Where the threadblocks of rank {@code r} are added. */
    public RankBuilder rank(int r) {
        if (r < 0 || r >= ranks) throw new IllegalArgumentException("rank " + r + " of a " + ranks + "-rank plan");
        return new RankBuilder(r);
    }

    public Plan build() {
        SourcePos pos = SourcePos.of(name + ".msccl");
        List<RankPlan> rps = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            List<Buffer> bufs = new ArrayList<>();
            Map<String, Integer> sizes = new LinkedHashMap<>();
            sizes.put(Buffer.INPUT, collective.inputChunks(ranks, chunkFactor));
            sizes.put(Buffer.OUTPUT, collective.outputChunks(ranks, chunkFactor));
            sizes.putAll(buffers);
            sizes.forEach((n, c) -> bufs.add(new Buffer(n, Buffer.kindOf(n), c)));
            Set<Dep> depended = new HashSet<>();
            for (Tb t : tbs.get(r)) for (StepSpec s : t.steps) depended.addAll(s.deps);
            List<Threadblock> out = new ArrayList<>();
            List<Tb> rankTbs = tbs.get(r);
            for (int id = 0; id < rankTbs.size(); id++) {
                Tb t = rankTbs.get(id);
                List<Step> steps = new ArrayList<>();
                for (int i = 0; i < t.steps.size(); i++) {
                    StepSpec s = t.steps.get(i);
                    steps.add(new Step(i, s.op, s.src, s.dst, s.peer, s.deps, depended.contains(new Dep(id, i)), pos, s.channel));
                }
                out.add(new Threadblock(id, t.sendPeer, t.recvPeer, t.channel, steps, pos));
            }
            rps.add(new RankPlan(r, bufs, out));
        }
        return new Plan(name, collective, ranks, chunkFactor, inplace, protocol, 1, rps, PlanFormat.DSL, attributes, pos);
    }

    private static final Pattern REF = Pattern.compile("(?:r(\\d+):)?(\\w+)\\[(\\d+)(?:\\+(\\d+))?]");

    /** {@code input[0]}, {@code output[2+2]}, {@code r1:output[0]}; a chunk without a rank is on {@code rank}. */
    public static ChunkRef ref(int rank, String text) {
        Matcher m = REF.matcher(text.strip());
        if (!m.matches()) throw new IllegalArgumentException("not a chunk: '" + text + "' (e.g. input[0], output[2+2], r1:scratch[0])");
        int r = m.group(1) == null ? rank : Integer.parseInt(m.group(1));
        int count = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
        return new ChunkRef(r, m.group(2), Integer.parseInt(m.group(3)), count);
    }

    private record StepSpec(OpKind op, ChunkRef src, ChunkRef dst, int peer, List<Dep> deps, int channel) {}

    private static final class Tb {
        int sendPeer = -1, recvPeer = -1, channel;
        final List<StepSpec> steps = new ArrayList<>();
    }

    /** Adds threadblocks to one rank, in id order. */
    public final class RankBuilder {
        private final int rank;

        private RankBuilder(int rank) {
            this.rank = rank;
        }

        /** The rank's next threadblock (ids are dense, in the order they are added). */
        public TbBuilder tb() {
            Tb t = new Tb();
            tbs.get(rank).add(t);
            return new TbBuilder(this, rank, tbs.get(rank).size() - 1, t);
        }

        public PlanBuilder done() {
            return PlanBuilder.this;
        }

        public RankBuilder rank(int r) {
            return PlanBuilder.this.rank(r);
        }

        public Plan build() {
            return PlanBuilder.this.build();
        }
    }

    /** One threadblock's peers, channel and steps in execution order. */
    public final class TbBuilder {
        private final RankBuilder owner;
        private final int rank;
        private final int id;
        private final Tb t;

        private TbBuilder(RankBuilder owner, int rank, int id, Tb t) {
            this.owner = owner;
            this.rank = rank;
            this.id = id;
            this.t = t;
        }

        public int id() {
            return id;
        }

        public TbBuilder sendTo(int peer) {
            t.sendPeer = peer;
            return this;
        }

        public TbBuilder recvFrom(int peer) {
            t.recvPeer = peer;
            return this;
        }

        public TbBuilder channel(int c) {
            t.channel = c;
            return this;
        }

        /** Any step: {@code src} and {@code dst} as chunk text or null. */
        public TbBuilder step(OpKind op, String src, String dst) {
            return add(op, src == null ? null : ref(rank, src), dst == null ? null : ref(rank, dst), -1);
        }

        public TbBuilder send(String src) {
            return step(OpKind.SEND, src, null);
        }

        public TbBuilder recv(String dst) {
            return step(OpKind.RECV, null, dst);
        }

        public TbBuilder copy(String src, String dst) {
            return step(OpKind.COPY, src, dst);
        }

        public TbBuilder reduce(String src, String dst) {
            return step(OpKind.REDUCE, src, dst);
        }

        /** Receives into {@code dst} and forwards the data to the send peer. */
        public TbBuilder recvCopySend(String dst) {
            return step(OpKind.RECV_COPY_SEND, null, dst);
        }

        /** Receives, reduces with {@code src} into {@code dst}. */
        public TbBuilder recvReduceCopy(String src, String dst) {
            return step(OpKind.RECV_REDUCE_COPY, src, dst);
        }

        /** Receives, reduces with {@code src} and forwards the sum without storing it. */
        public TbBuilder recvReduceSend(String src) {
            return step(OpKind.RECV_REDUCE_SEND, src, null);
        }

        /** Receives, reduces with {@code src} into {@code dst} and forwards the sum. */
        public TbBuilder recvReduceCopySend(String src, String dst) {
            return step(OpKind.RECV_REDUCE_COPY_SEND, src, dst);
        }

        /** One-sided write of a local chunk into {@code peer}'s {@code dst}. */
        public TbBuilder put(int peer, String src, String dst) {
            return add(OpKind.PUT, ref(rank, src), ref(peer, dst), peer);
        }

        /** One-sided read of {@code peer}'s {@code src} into a local chunk. */
        public TbBuilder get(int peer, String src, String dst) {
            return add(OpKind.GET, ref(peer, src), ref(rank, dst), peer);
        }

        public TbBuilder signal(int peer) {
            return add(OpKind.SIGNAL, null, null, peer);
        }

        /** Waits for {@code peer}'s signal ({@code wait} is taken by Object). */
        public TbBuilder await(int peer) {
            return add(OpKind.WAIT, null, null, peer);
        }

        public TbBuilder nop() {
            return add(OpKind.NOP, null, null, -1);
        }

        /** The last step added waits for step {@code step} of threadblock {@code tb} of this rank. */
        public TbBuilder after(int tb, int step) {
            StepSpec last = t.steps.remove(t.steps.size() - 1);
            List<Dep> deps = new ArrayList<>(last.deps);
            deps.add(new Dep(tb, step));
            t.steps.add(new StepSpec(last.op, last.src, last.dst, last.peer, deps, last.channel));
            return this;
        }

        private TbBuilder add(OpKind op, ChunkRef src, ChunkRef dst, int peer) {
            t.steps.add(new StepSpec(op, src, dst, peer, List.of(), -1));
            return this;
        }

        /** The rank's next threadblock. */
        public TbBuilder tb() {
            return owner.tb();
        }

        public RankBuilder rank(int r) {
            return owner.rank(r);
        }

        public PlanBuilder done() {
            return owner.done();
        }

        public Plan build() {
            return owner.build();
        }
    }
}
