package dev.nunac.frontend.dsl;

import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.ArrayList;
import java.util.List;

/**
 * MSCCLang's instance replication: each threadblock t becomes t*I+i for instance i < I, on
 * channel maxChannels*i + ch; input and output chunks are interleaved (index*I + i*count),
 * scratch chunks batched (size*i + index); every buffer grows I times.
 */
final class InstanceReplication {
    private InstanceReplication() {}

    static Plan replicate(Plan p, int instances) {
        if (instances == 1) return p;
        int maxCh = 0;
        for (RankPlan rp : p.rankPlans()) for (Threadblock t : rp.threadblocks()) maxCh = Math.max(maxCh, t.channel() + 1);
        List<RankPlan> out = new ArrayList<>();
        for (RankPlan rp : p.rankPlans()) {
            List<Buffer> bufs = new ArrayList<>();
            for (Buffer b : rp.buffers()) bufs.add(new Buffer(b.name(), b.kind(), b.chunks() * instances));
            List<Threadblock> tbs = new ArrayList<>();
            for (Threadblock t : rp.threadblocks()) {
                for (int i = 0; i < instances; i++) {
                    List<Step> steps = new ArrayList<>();
                    for (Step s : t.steps()) {
                        List<Dep> deps = new ArrayList<>();
                        for (Dep d : s.deps()) deps.add(new Dep(d.tb() * instances + i, d.step()));
                        steps.add(new Step(s.index(), s.op(), map(p, s.src(), i, instances), map(p, s.dst(), i, instances),
                                s.peer(), deps, s.hasDep(), s.pos()));
                    }
                    tbs.add(new Threadblock(t.id() * instances + i, t.sendPeer(), t.recvPeer(), maxCh * i + t.channel(),
                            steps, t.pos()));
                }
            }
            out.add(new RankPlan(rp.rank(), bufs, tbs));
        }
        return new Plan(p.name(), p.collective(), p.ranks(), p.chunkFactor(), p.inplace(), p.protocol(), instances, out,
                p.format(), p.attributes(), p.pos());
    }

    private static ChunkRef map(Plan p, ChunkRef c, int i, int instances) {
        if (c == null) return null;
        if (Buffer.kindOf(c.buffer()) == BufferKind.SCRATCH) {
            int size = p.rank(c.rank()).bufferChunks(c.buffer());
            return new ChunkRef(c.rank(), c.buffer(), size * i + c.index(), c.count());
        }
        return new ChunkRef(c.rank(), c.buffer(), c.index() * instances + i * c.count(), c.count());
    }
}
