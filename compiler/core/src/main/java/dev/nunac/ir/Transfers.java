package dev.nunac.ir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs every sending step with the receiving step that takes its data, and every signal with
 * its wait. Like MSCCL's connections, the k-th transmission from rank a to rank b on channel c
 * meets the k-th reception at b from a on c; within a rank, steps are taken in (threadblock,
 * step) order, so the pairing is deterministic. Signals and waits use their step's channel
 * ({@link Step#channelIn}), sends and receives their threadblock's.
 */
public final class Transfers {
    /** A step of the plan. */
    public record Endpoint(int rank, int tb, int step) {
        // Mixed, so that large plans (65,536 threadblocks) do not collide into tree bins.
        @Override
        public int hashCode() {
            return mix(rank, tb, step);
        }
    }

    static int mix(int a, int b, int c) {
        long h = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL + c * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        return (int) (h ^ (h >>> 32));
    }

    /** A matched sender/receiver pair on a channel. */
    public record Transfer(Endpoint from, Endpoint to, int channel) {}

    private final List<Transfer> transfers;
    private final List<Transfer> signals;
    // A step that receives and forwards (rcs, rrs, rrcs) has both a sender and a receiver.
    private final Map<Endpoint, Endpoint> senderOf = new HashMap<>();
    private final Map<Endpoint, Endpoint> receiverOf = new HashMap<>();
    private final List<Endpoint> unmatched = new ArrayList<>();

    private Transfers(List<Transfer> transfers, List<Transfer> signals, List<Endpoint> unmatchedEnds) {
        this.transfers = List.copyOf(transfers);
        this.signals = List.copyOf(signals);
        for (Transfer t : transfers) {
            receiverOf.put(t.from, t.to);
            senderOf.put(t.to, t.from);
        }
        for (Transfer t : signals) {
            receiverOf.put(t.from, t.to);
            senderOf.put(t.to, t.from);
        }
        unmatched.addAll(unmatchedEnds);
    }

    private record Key(int from, int to, int channel) {
        @Override
        public int hashCode() {
            return mix(from, to, channel);
        }
    }

    public static Transfers of(Plan plan) {
        Map<Key, List<Endpoint>> sends = new HashMap<>();
        Map<Key, List<Endpoint>> recvs = new HashMap<>();
        Map<Key, List<Endpoint>> sigs = new HashMap<>();
        Map<Key, List<Endpoint>> waits = new HashMap<>();
        List<Key> sendOrder = new ArrayList<>();
        List<Key> sigOrder = new ArrayList<>();
        for (RankPlan rp : plan.rankPlans()) {
            for (Threadblock tb : rp.threadblocks()) {
                for (Step s : tb.steps()) {
                    Endpoint e = new Endpoint(rp.rank(), tb.id(), s.index());
                    if (s.op().receives) {
                        recvs.computeIfAbsent(new Key(tb.recvPeer(), rp.rank(), tb.channel()), k -> new ArrayList<>()).add(e);
                    }
                    if (s.op().sends) {
                        Key k = new Key(rp.rank(), tb.sendPeer(), tb.channel());
                        sends.computeIfAbsent(k, x -> { sendOrder.add(x); return new ArrayList<>(); }).add(e);
                    }
                    if (s.op() == OpKind.SIGNAL) {
                        Key k = new Key(rp.rank(), s.peer(), s.channelIn(tb));
                        sigs.computeIfAbsent(k, x -> { sigOrder.add(x); return new ArrayList<>(); }).add(e);
                    } else if (s.op() == OpKind.WAIT) {
                        waits.computeIfAbsent(new Key(s.peer(), rp.rank(), s.channelIn(tb)), k -> new ArrayList<>()).add(e);
                    }
                }
            }
        }
        List<Endpoint> unmatchedEnds = new ArrayList<>();
        List<Transfer> ts = pair(sendOrder, sends, recvs, unmatchedEnds);
        List<Transfer> ss = pair(sigOrder, sigs, waits, unmatchedEnds);
        return new Transfers(ts, ss, unmatchedEnds);
    }

    private static List<Transfer> pair(List<Key> order, Map<Key, List<Endpoint>> from, Map<Key, List<Endpoint>> to,
                                       List<Endpoint> unmatchedEnds) {
        List<Transfer> out = new ArrayList<>();
        for (Key k : order) {
            List<Endpoint> a = from.get(k);
            List<Endpoint> b = to.getOrDefault(k, List.of());
            int n = Math.min(a.size(), b.size());
            for (int i = 0; i < n; i++) out.add(new Transfer(a.get(i), b.get(i), k.channel()));
            for (int i = n; i < a.size(); i++) unmatchedEnds.add(a.get(i));
            for (int i = n; i < b.size(); i++) unmatchedEnds.add(b.get(i));
        }
        for (Map.Entry<Key, List<Endpoint>> e : to.entrySet()) {
            if (!from.containsKey(e.getKey())) unmatchedEnds.addAll(e.getValue());
        }
        unmatchedEnds.sort(java.util.Comparator.comparingInt(Endpoint::rank).thenComparingInt(Endpoint::tb)
                .thenComparingInt(Endpoint::step));
        return out;
    }

    /** Data transfers (send → receive), in a deterministic order. */
    public List<Transfer> transfers() {
        return transfers;
    }

    /** Signal → wait pairs. */
    public List<Transfer> signals() {
        return signals;
    }

    /** The send (or signal) that a receiving step (or wait) takes; null when unmatched. */
    public Endpoint senderOf(Endpoint e) {
        return senderOf.get(e);
    }

    /** The receive (or wait) that takes a sending step's data (or signal); null when unmatched. */
    public Endpoint receiverOf(Endpoint e) {
        return receiverOf.get(e);
    }

    /** Sends without a receive, receives without a send, and likewise for signals. */
    public List<Endpoint> unmatched() {
        return List.copyOf(unmatched);
    }
}
