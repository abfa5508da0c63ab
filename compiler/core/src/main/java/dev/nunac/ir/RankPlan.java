package dev.nunac.ir;

import java.util.List;
import java.util.Optional;

/** The part of a plan that runs on one rank (GPU): its buffers and threadblocks. */
public record RankPlan(int rank, List<Buffer> buffers, List<Threadblock> threadblocks) {
    public RankPlan {
        buffers = List.copyOf(buffers);
        threadblocks = List.copyOf(threadblocks);
    }

    public Optional<Buffer> buffer(String name) {
        for (Buffer b : buffers) if (b.name().equals(name)) return Optional.of(b);
        return Optional.empty();
    }

    public int bufferChunks(String name) {
        return buffer(name).map(Buffer::chunks).orElse(0);
    }

    public Threadblock tb(int id) {
        return threadblocks.get(id);
    }

    public int stepCount() {
        int n = 0;
        for (Threadblock t : threadblocks) n += t.steps().size();
        return n;
    }
}
