package dev.nunac.passes.search;

import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cost model that remembers its estimates, for the searches of one comparison: every search at
 * a size times UA, and the searches restricted to one policy time placements the search over all
 * of them timed already, or that another policy places alike (nap* at granularity 1 places as
 * UA). An estimate depends only on the plan, the topology, the size and where the placement puts
 * threadblocks and pages (the models are pure, and the simulator reads neither the policy's name
 * nor the logical groups, which SimulationMemoTest holds it to), so a placement that puts them in
 * the same places at the same size of the same compiled plan gets the estimate it got before,
 * identical to a fresh one. Placements of another plan or topology than the first asked about
 * are estimated without being remembered. Only the estimates of one size are kept (a comparison
 * searches its sizes in turn): a simulation holds a timing per threadblock, and those of every
 * size of a large plan together would fill the heap.
 */
public final class SimulationMemo implements CostModel {
    private final CostModel model;
    private final ConcurrentHashMap<Key, Estimate> known = new ConcurrentHashMap<>();
    private PlacementInput first;
    private long size = -1;

    /** What the estimate of a placement reads (its SHA-256), at a size and layout. */
    private record Key(long sizeBytes, boolean repack, String placement) {}

    public SimulationMemo(CostModel model) {
        this.model = model;
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
        boolean ours;
        synchronized (this) {
            if (first == null) first = in;
            ours = in.plan() == first.plan() && in.accesses() == first.accesses() && in.topology() == first.topology();
            if (ours && in.sizeBytes() != size) {
                known.clear(); // another size: nothing remembered can be asked for again
                size = in.sizeBytes();
            }
        }
        if (!ours) return model.estimate(in, placement);
        Key k = new Key(in.sizeBytes(), in.repack(), fingerprint(placement));
        Estimate e = known.get(k);
        if (e != null) return e;
        e = model.estimate(in, placement); // two threads may both estimate a new placement: the same value either way
        Estimate had = known.putIfAbsent(k, e);
        return had != null ? had : e;
    }

    /** How many distinct placements were estimated and remembered. */
    public int size() {
        return known.size();
    }

    static String fingerprint(Placement p) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(p.granularity());
            out.writeBoolean(p.direct());
            out.writeLong(p.chunkBytes());
            out.writeLong(p.pageBytes());
            ints(out, p.cuOfTb());
            ints(out, p.domainOfTb());
            out.writeInt(p.pages().size());
            for (PageMap m : p.pages()) {
                out.writeInt(m.rank());
                out.writeUTF(m.buffer());
                out.writeUTF(m.layout().name());
                ints(out, m.stack());
                ints(out, m.domain());
                ints(out, m.slot());
            }
            out.writeUTF(String.valueOf(p.stats()));
            out.flush();
            return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("an in-memory digest cannot fail", e);
        }
    }

    private static void ints(DataOutputStream out, int[] a) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (int v : a) out.writeInt(v);
    }
}
