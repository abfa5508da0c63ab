package dev.nunac.passes.search;

import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cost model that remembers its estimates, for the searches of one comparison: every search at
 * a size times UA, and the searches restricted to one policy time placements the search over all
 * of them timed already, or that another policy places alike (nap* at granularity 1 places as
 * UA). An estimate depends only on the plan, the topology, the size and where the placement puts
 * threadblocks and pages (the models are pure, and the simulator reads neither the policy's name
 * nor the logical groups, which SimulationMemoTest holds it to), so a placement that puts them in
 * the same places at the same size of the same compiled plan gets the estimate it got before,
 * identical to a fresh one. Whether the collective's input and output may be repacked is not part
 * of the key: only the placer reads it, and what it changes is where pages go, which the key holds.
 *
 * <p>By default, placements of another plan or topology than the first asked about are estimated
 * without being remembered, and only the estimates of one size are kept (a comparison searches
 * its sizes in turn): a simulation holds a timing per threadblock, and those of every size of a
 * large plan together would fill the heap. {@link #keepingAll} remembers every plan's, topology's
 * and size's, for a caller that runs many searches over a few plans and bounds the memo's life
 * itself (the paper reproduction, whose figures share points). A plan counts as the same only if
 * it is the same compiled plan: the same plan, accesses and topology objects.
 *
 * <p>A placement asked for while another thread is estimating it waits for that estimate instead
 * of running its own: searches side by side on the cores time the same UA at once.
 */
public final class SimulationMemo implements CostModel {
    private final CostModel model;
    private final boolean keepAll;
    private final ConcurrentHashMap<Key, CompletableFuture<Estimate>> known = new ConcurrentHashMap<>();
    /** The compiled plans asked about, by identity; their index is their part of the key. Only the first in the default mode. */
    private final List<PlacementInput> inputs = new ArrayList<>();
    private long size = -1;

    /** What the estimate of a placement reads: the compiled plan (an index into {@link #inputs}), the size, and the placement (its SHA-256). */
    private record Key(int input, long sizeBytes, String placement) {}

    /** A memo of one plan's searches at one size at a time. */
    public SimulationMemo(CostModel model) {
        this(model, false);
    }

    private SimulationMemo(CostModel model, boolean keepAll) {
        this.model = model;
        this.keepAll = keepAll;
    }

    /** A memo that keeps every estimate of every plan, topology and size until it is dropped. */
    public static SimulationMemo keepingAll(CostModel model) {
        return new SimulationMemo(model, true);
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public dev.nunac.passes.cost.Opening opening(PlacementInput in, Placement placement, double untilNs) {
        return model.opening(in, placement, untilNs); // not remembered: a stretch depends on its length
    }

    @Override
    public long cost(PlacementInput in, Placement placement) {
        return model.cost(in, placement);
    }

    @Override
    public Estimate estimate(PlacementInput in, Placement placement) {
        int input;
        synchronized (this) {
            input = inputOf(in);
            if (input < 0) return model.estimate(in, placement);
            if (!keepAll && in.sizeBytes() != size) {
                known.clear(); // another size: nothing remembered can be asked for again
                size = in.sizeBytes();
            }
        }
        Key k = new Key(input, in.sizeBytes(), fingerprint(placement));
        CompletableFuture<Estimate> mine = new CompletableFuture<>();
        CompletableFuture<Estimate> had = known.putIfAbsent(k, mine);
        if (had != null) {
            try {
                return had.join(); // the same value as a run of its own
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                throw e;
            }
        }
        try {
            Estimate e = model.estimate(in, placement);
            mine.complete(e);
            return e;
        } catch (RuntimeException | Error e) {
            known.remove(k, mine); // a later ask tries again
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** The index of the input's compiled plan among those remembered, adding it when there is room; -1 when not remembered. */
    private int inputOf(PlacementInput in) {
        for (int i = 0; i < inputs.size(); i++) {
            PlacementInput p = inputs.get(i);
            if (in.plan() == p.plan() && in.accesses() == p.accesses() && in.topology() == p.topology()) return i;
        }
        if (!keepAll && !inputs.isEmpty()) return -1;
        inputs.add(in);
        return inputs.size() - 1;
    }

    /** How many distinct placements were estimated and remembered. */
    public int size() {
        return known.size();
    }

    static String fingerprint(Placement p) {
        Digest d = new Digest();
        d.putInt(p.granularity());
        d.putInt(p.direct() ? 1 : 0);
        d.putLong(p.chunkBytes());
        d.putLong(p.pageBytes());
        d.ints(p.cuOfTb());
        d.ints(p.domainOfTb());
        d.putInt(p.pages().size());
        for (PageMap m : p.pages()) {
            d.putInt(m.rank());
            d.text(m.buffer());
            d.text(m.layout().name());
            d.ints(m.stack());
            d.ints(m.domain());
            d.ints(m.slot());
        }
        d.text(String.valueOf(p.stats()));
        return java.util.HexFormat.of().formatHex(d.finish());
    }

    /**
     * SHA-256 of values put in order, through one buffer (a 1 GB plan's page maps are millions of
     * ints: a stream of single-byte writes into a growing array cost a sweep 4 % of its time).
     */
    private static final class Digest {
        private final MessageDigest md;
        private final ByteBuffer buf = ByteBuffer.allocate(1 << 16);

        Digest() {
            try {
                md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }

        void putInt(int v) {
            if (buf.remaining() < Integer.BYTES) drain();
            buf.putInt(v);
        }

        void putLong(long v) {
            if (buf.remaining() < Long.BYTES) drain();
            buf.putLong(v);
        }

        /** An array, its length first (-1: none). */
        void ints(int[] a) {
            if (a == null) {
                putInt(-1);
                return;
            }
            putInt(a.length);
            for (int i = 0; i < a.length; ) {
                if (buf.remaining() < Integer.BYTES) drain();
                int n = Math.min(a.length - i, buf.remaining() / Integer.BYTES);
                buf.asIntBuffer().put(a, i, n);
                buf.position(buf.position() + n * Integer.BYTES);
                i += n;
            }
        }

        void text(String t) {
            byte[] b = t.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            putInt(b.length);
            drain();
            md.update(b);
        }

        private void drain() {
            md.update(buf.array(), 0, buf.position());
            buf.clear();
        }

        byte[] finish() {
            drain();
            return md.digest();
        }
    }
}
