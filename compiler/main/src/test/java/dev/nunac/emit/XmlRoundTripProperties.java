package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Dep;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.Protocol;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random well-formed plans of two-sided steps, built directly as IR: export to XML and import
 * again gives the same steps (after folding the nops that carry extra dependencies), and a
 * second export gives the same text. Plans have no nop steps of their own, so that the nops in
 * the XML are exactly those the exporter added (XmlStepTypeTest covers imported nops).
 */
class XmlRoundTripProperties {
    private static final OpKind[] OPS = {OpKind.SEND, OpKind.RECV, OpKind.RECV_COPY_SEND, OpKind.RECV_REDUCE_SEND,
            OpKind.RECV_REDUCE_COPY, OpKind.RECV_REDUCE_COPY_SEND, OpKind.COPY, OpKind.REDUCE, OpKind.RESIDUAL_ADD};
    private static final String[] BUFS = {Buffer.INPUT, Buffer.OUTPUT, Buffer.SCRATCH};

    @Property(tries = 200)
    void exportThenImportKeepsTheSteps(@ForAll("plans") Plan p) {
        assertEquals(List.of(), IrVerifier.verify(p).all(), "generator makes well-formed plans");
        String xml = MscclXmlExporter.export(p);
        Plan back = MscclXmlExporterTest.viaXml(p);
        assertEquals(IrCompare.body(p), IrCompare.body(IrCompare.foldNops(back)).replace("t.xml", "gen"));
        assertEquals(xml, MscclXmlExporter.export(back));
    }

    @Provide
    Arbitrary<Plan> plans() {
        return Arbitraries.longs().map(seed -> generate(new Random(seed)));
    }

    static Plan generate(Random rnd) {
        int ranks = 2 + rnd.nextInt(3);
        int size = 1 + rnd.nextInt(4);
        SourcePos pos = new SourcePos("gen", 1, 1);
        List<RankPlan> rps = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            int ntb = 1 + rnd.nextInt(3);
            int[] lengths = new int[ntb];
            for (int t = 0; t < ntb; t++) lengths[t] = rnd.nextInt(5);
            List<Threadblock> tbs = new ArrayList<>();
            for (int t = 0; t < ntb; t++) {
                int send = rnd.nextBoolean() ? peer(rnd, r, ranks) : -1;
                int recv = rnd.nextBoolean() ? peer(rnd, r, ranks) : -1;
                List<Step> steps = new ArrayList<>();
                for (int i = 0; i < lengths[t]; i++) {
                    OpKind op;
                    do op = OPS[rnd.nextInt(OPS.length)]; while ((op.sends && send < 0) || (op.receives && recv < 0));
                    int cnt = 1 + rnd.nextInt(size);
                    ChunkRef src = op.readsSrc ? ref(rnd, r, size, cnt) : null;
                    ChunkRef dst = op.writesDst ? ref(rnd, r, size, cnt) : null;
                    List<Dep> deps = new ArrayList<>();
                    for (int k = 0; k < ntb; k++) {
                        if (k != t && lengths[k] > 0 && rnd.nextInt(3) == 0) deps.add(new Dep(k, rnd.nextInt(lengths[k])));
                    }
                    steps.add(new Step(i, op, src, dst, -1, deps, rnd.nextBoolean(), pos));
                }
                tbs.add(new Threadblock(t, send, recv, rnd.nextInt(2), steps, pos));
            }
            rps.add(new RankPlan(r, List.of(new Buffer(Buffer.INPUT, BufferKind.INPUT, size),
                    new Buffer(Buffer.OUTPUT, BufferKind.OUTPUT, size), new Buffer(Buffer.SCRATCH, BufferKind.SCRATCH, size)), tbs));
        }
        return new Plan("gen", Collective.CUSTOM, ranks, size, false, Protocol.SIMPLE, 1, rps, PlanFormat.DSL,
                new TreeMap<>(), pos);
    }

    private static int peer(Random rnd, int self, int ranks) {
        int p = rnd.nextInt(ranks - 1);
        return p >= self ? p + 1 : p;
    }

    private static ChunkRef ref(Random rnd, int rank, int size, int cnt) {
        return new ChunkRef(rank, BUFS[rnd.nextInt(BUFS.length)], rnd.nextInt(size - cnt + 1), cnt);
    }
}
