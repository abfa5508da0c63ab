package dev.nunac.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Pairs every sending step with the receiving step that takes its data, and every signal with
 * its wait. Like MSCCL's connections, the k-th transmission from rank a to rank b on channel c
 * meets the k-th reception at b from a on c; within a rank, steps are taken in (threadblock,
 * step) order, so the pairing is deterministic. Signals and waits use their step's channel
 * ({@link Step#channelIn}), sends and receives their threadblock's.
 *
 * <p>Steps are numbered in (rank, threadblock, step) order and the pairing is kept in arrays
 * indexed by that number: the checker, access analysis and the cost model look partners up
 * once per step, and plans reach millions of steps. Nothing is kept per step but ints (its
 * threadblock's number, its partners): the {@link Endpoint}s and {@link Transfer}s of the
 * accessors are made when asked for. The plan must have passed the {@link IrVerifier} (dense
 * ids, peers within the plan).
 */
public final class Transfers {
    /** A step of the plan. */
    public record Endpoint(int rank, int tb, int step) {
        // Mixed, so that large plans (65,536 threadblocks) do not collide into tree bins.
        @Override
        public int hashCode() {
            long h = rank * 0x9E3779B97F4A7C15L + tb * 0xC2B2AE3D27D4EB4FL + step * 0x165667B19E3779F9L;
            h ^= h >>> 29;
            return (int) (h ^ (h >>> 32));
        }
    }

    /** A matched sender/receiver pair on a channel. */
    public record Transfer(Endpoint from, Endpoint to, int channel) {}

    private final int[][] firstStep;   // [rank][tb]: number of the threadblock's first step
    private final int steps;
    // Threadblocks numbered in (rank, threadblock) order: rank, id and first step of each.
    private final int[] tbRank, tbId, tbFirst;
    private final int[] tbOfStep;      // by step number: its threadblock's number
    private final int[] senderOf;      // by step number: the partner's number, or -1
    private final int[] receiverOf;
    // Matched pairs as step numbers with their channels, in the order transfers() lists them.
    private final Pairs transferPairs = new Pairs(), signalPairs = new Pairs();
    private int[] unmatched;           // step numbers, in step order

    private Transfers(Plan plan) {
        firstStep = new int[plan.ranks()][];
        int n = 0, tbs = plan.threadblockCount();
        tbRank = new int[tbs];
        tbId = new int[tbs];
        tbFirst = new int[tbs];
        int g = 0;
        for (RankPlan rp : plan.rankPlans()) {
            int[] first = firstStep[rp.rank()] = new int[rp.threadblocks().size()];
            for (Threadblock tb : rp.threadblocks()) {
                first[tb.id()] = n;
                tbRank[g] = rp.rank();
                tbId[g] = tb.id();
                tbFirst[g++] = n;
                n += tb.steps().size();
            }
        }
        steps = n;
        tbOfStep = new int[n];
        for (g = 0; g < tbs; g++) {
            int end = g + 1 < tbs ? tbFirst[g + 1] : n;
            Arrays.fill(tbOfStep, tbFirst[g], end, g);
        }
        senderOf = new int[n];
        receiverOf = new int[n];
        Arrays.fill(senderOf, -1);
        Arrays.fill(receiverOf, -1);
    }

    /** Matched pairs: sending and receiving step numbers and the channel, growable. */
    private static final class Pairs {
        int[] from = new int[16], to = new int[16], channel = new int[16];
        int size;

        void add(int s, int r, int ch) {
            if (size == from.length) {
                from = Arrays.copyOf(from, size * 2);
                to = Arrays.copyOf(to, size * 2);
                channel = Arrays.copyOf(channel, size * 2);
            }
            from[size] = s;
            to[size] = r;
            channel[size++] = ch;
        }
    }

    public static Transfers of(Plan plan) {
        Transfers t = new Transfers(plan);
        int n = t.steps;
        // The connection (from, to, channel) of each sending and receiving step, in step order.
        Connections sends = new Connections(n), recvs = new Connections(n), sigs = new Connections(n), waits = new Connections(n);
        int maxChannel = 0;
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock tb : rp.threadblocks()) {
                maxChannel = Math.max(maxChannel, tb.channel());
                for (Step s : tb.steps()) maxChannel = Math.max(maxChannel, s.channelIn(tb));
            }
        }
        Key key = new Key(plan.ranks(), maxChannel);
        for (RankPlan rp : plan.rankPlans()) {
            int r = rp.rank();
            for (Threadblock tb : rp.threadblocks()) {
                int first = t.firstStep[r][tb.id()];
                List<Step> steps = tb.steps();
                for (int i = 0; i < steps.size(); i++) { // indexed: C1 would make an iterator per threadblock
                    Step s = steps.get(i);
                    int id = first + s.index();
                    if (s.op().receives) recvs.add(key.of(tb.recvPeer(), r, tb.channel()), id);
                    if (s.op().sends) sends.add(key.of(r, tb.sendPeer(), tb.channel()), id);
                    if (s.op() == OpKind.SIGNAL) sigs.add(key.of(r, s.peer(), s.channelIn(tb)), id);
                    else if (s.op() == OpKind.WAIT) waits.add(key.of(s.peer(), r, s.channelIn(tb)), id);
                }
            }
        }
        boolean[] unmatched = new boolean[n];
        t.pair(sends, recvs, key, t.transferPairs, unmatched);
        t.pair(sigs, waits, key, t.signalPairs, unmatched);
        int u = 0;
        for (int id = 0; id < n; id++) if (unmatched[id]) u++;
        t.unmatched = new int[u];
        u = 0;
        for (int id = 0; id < n; id++) if (unmatched[id]) t.unmatched[u++] = id;
        return t;
    }

    /** Encodes (from, to, channel) as one long; exact for any verified plan. */
    private record Key(long ranks, long channels) {
        Key(int ranks, int maxChannel) {
            this(ranks + 1L, maxChannel + 2L);
            Math.multiplyExact(Math.multiplyExact(this.ranks, this.ranks), this.channels); // fits, or fail loudly
        }

        long of(int from, int to, int channel) {
            return ((from + 1L) * ranks + (to + 1L)) * channels + (channel + 1L);
        }
    }

    /** Step numbers and their connection keys, in step order. */
    private static final class Connections {
        long[] keys;
        int[] ids;
        int size;

        Connections(int capacity) {
            keys = new long[Math.min(capacity, 1024)];
            ids = new int[keys.length];
        }

        void add(long key, int id) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, Math.max(16, size * 2));
                ids = Arrays.copyOf(ids, keys.length);
            }
            keys[size] = key;
            ids[size++] = id;
        }

        /** Each step's connection as an index into {@code distinct}, or -1 if absent there. */
        int[] indexIn(KeyIndex distinct) {
            int[] out = new int[size];
            for (int i = 0; i < size; i++) out[i] = distinct.indexOf(keys[i]);
            return out;
        }

        /** Per connection index, the positions of its steps in step order (a counting sort). */
        static int[][] buckets(int[] index, int connections) {
            int[] count = new int[connections];
            for (int k : index) if (k >= 0) count[k]++;
            int[][] out = new int[connections][];
            for (int k = 0; k < connections; k++) out[k] = new int[count[k]];
            Arrays.fill(count, 0);
            for (int i = 0; i < index.length; i++) if (index[i] >= 0) out[index[i]][count[index[i]]++] = i;
            return out;
        }
    }

    /**
     * The position of each of a set of distinct connection keys, by open addressing: looked up
     * once per sending and receiving step, where a binary search over a plan's hundreds of
     * thousands of connections took a score of probes each.
     */
    private static final class KeyIndex {
        private final long[] keys;
        private final int[] index;
        private final int mask;

        KeyIndex(long[] distinct) {
            int cap = Integer.highestOneBit(Math.max(4, distinct.length * 2 - 1)) << 1;
            keys = new long[cap];
            index = new int[cap];
            mask = cap - 1;
            Arrays.fill(index, -1);
            for (int k = 0; k < distinct.length; k++) {
                int i = slot(distinct[k]);
                keys[i] = distinct[k];
                index[i] = k;
            }
        }

        private int slot(long key) {
            int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 33) & mask;
            while (index[i] >= 0 && keys[i] != key) i = (i + 1) & mask;
            return i;
        }

        int indexOf(long key) {
            return index[slot(key)];
        }
    }

    /**
     * Pairs the k-th sender with the k-th receiver of each connection. Pairs are listed by
     * connection in the order the connections first send, then by k.
     */
    private void pair(Connections from, Connections to, Key key, Pairs out, boolean[] unmatchedIds) {
        long[] distinct = Arrays.copyOf(from.keys, from.size);
        Arrays.sort(distinct);
        int m = 0;
        for (int i = 0; i < distinct.length; i++) if (i == 0 || distinct[i] != distinct[i - 1]) distinct[m++] = distinct[i];
        distinct = Arrays.copyOf(distinct, m);
        KeyIndex index = new KeyIndex(distinct);
        int[] fromIdx = from.indexIn(index), toIdx = to.indexIn(index);
        int[][] fromOf = Connections.buckets(fromIdx, m), toOf = Connections.buckets(toIdx, m);
        for (int i = 0; i < to.size; i++) if (toIdx[i] < 0) unmatchedIds[to.ids[i]] = true;
        boolean[] done = new boolean[m];
        for (int i = 0; i < from.size; i++) {
            int k = fromIdx[i];
            if (done[k]) continue;
            done[k] = true;
            int[] a = fromOf[k], b = toOf[k];
            int channel = (int) (distinct[k] % key.channels()) - 1;
            int pairs = Math.min(a.length, b.length);
            for (int j = 0; j < pairs; j++) {
                int s = from.ids[a[j]], r = to.ids[b[j]];
                receiverOf[s] = r;
                senderOf[r] = s;
                out.add(s, r, channel);
            }
            for (int j = pairs; j < a.length; j++) unmatchedIds[from.ids[a[j]]] = true;
            for (int j = pairs; j < b.length; j++) unmatchedIds[to.ids[b[j]]] = true;
        }
    }

    /** Data transfers (send → receive), in a deterministic order; made on each call. */
    public List<Transfer> transfers() {
        return listed(transferPairs);
    }

    /** Signal → wait pairs; made on each call. */
    public List<Transfer> signals() {
        return listed(signalPairs);
    }

    private List<Transfer> listed(Pairs p) {
        List<Transfer> out = new ArrayList<>(p.size);
        for (int i = 0; i < p.size; i++) out.add(new Transfer(endpoint(p.from[i]), endpoint(p.to[i]), p.channel[i]));
        return java.util.Collections.unmodifiableList(out);
    }

    /** The step numbered {@code id} ({@link #stepId}). */
    public Endpoint endpoint(int id) {
        int g = tbOfStep[id];
        return new Endpoint(tbRank[g], tbId[g], id - tbFirst[g]);
    }

    /** The send (or signal) that a receiving step (or wait) takes; null when unmatched. */
    public Endpoint senderOf(Endpoint e) {
        int id = idOf(e);
        return id < 0 || senderOf[id] < 0 ? null : endpoint(senderOf[id]);
    }

    /** The receive (or wait) that takes a sending step's data (or signal); null when unmatched. */
    public Endpoint receiverOf(Endpoint e) {
        int id = idOf(e);
        return id < 0 || receiverOf[id] < 0 ? null : endpoint(receiverOf[id]);
    }

    /** Steps of the plan: numbers run 0 .. stepCount()-1 in (rank, threadblock, step) order. */
    public int stepCount() {
        return steps;
    }

    /** The number of a step (the plan's threadblock ids are dense, as verified). */
    public int stepId(int rank, int tb, int step) {
        return firstStep[rank][tb] + step;
    }

    /** The number of the step that sends to (or signals) step {@code id}, or -1. */
    public int senderId(int id) {
        return senderOf[id];
    }

    /** The number of the step that receives from (or waits for) step {@code id}, or -1. */
    public int receiverId(int id) {
        return receiverOf[id];
    }

    /** Sends without a receive, receives without a send, and likewise for signals; in step order. */
    public List<Endpoint> unmatched() {
        Endpoint[] out = new Endpoint[unmatched.length];
        for (int i = 0; i < out.length; i++) out[i] = endpoint(unmatched[i]);
        return List.of(out);
    }

    private int idOf(Endpoint e) {
        if (e.rank() < 0 || e.rank() >= firstStep.length || e.tb() < 0 || e.tb() >= firstStep[e.rank()].length) return -1;
        int id = firstStep[e.rank()][e.tb()] + e.step();
        // the step must lie inside its threadblock, not run on into the next one's
        return e.step() >= 0 && id < steps && tbRank[tbOfStep[id]] == e.rank() && tbId[tbOfStep[id]] == e.tb() ? id : -1;
    }
}
