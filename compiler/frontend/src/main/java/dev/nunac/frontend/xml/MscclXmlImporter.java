package dev.nunac.frontend.xml;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Utf8Check;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.BufferKind;
import dev.nunac.ir.IrVerifier;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.PlanLimits;
import dev.nunac.ir.RankPlan;
import dev.nunac.ir.Step;
import dev.nunac.ir.Threadblock;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The MSCCL-IR XML front end ({@code <algo><gpu><tb><step>}, as msccl-tools writes it and the
 * MSCCL/RCCL executors read it). Streams the document, reports every content error it can find
 * with its line and column (kind PLAN), and refuses unreadable or unsafe documents (kind INPUT).
 * The result is verified ({@link IrVerifier}); dependencies stay as written: one per step, with
 * the extra ones on {@code nop} steps, so that export gives the same steps back.
 */
public final class MscclXmlImporter implements XmlDocumentReader.Handler {
    private static final String[] LEVELS = {"algo", "gpu", "tb", "step"};

    private final Limits limits;
    private final Diagnostics d = new Diagnostics();
    private AlgoHeader header;
    private boolean sawAlgo;
    private final List<GpuB> gpus = new ArrayList<>();
    private GpuB gpu;
    private TbB tb;
    private int skipFrom; // depth of an ignored subtree's root, 0 when none
    // <gpu> elements refused with an error already: not "missing" as well (any id, when the id itself was bad)
    private final java.util.Set<Integer> refusedGpus = new java.util.HashSet<>();
    private boolean refusedGpuOfUnknownId;
    private long steps;

    private static final class GpuB {
        int id;
        SourcePos pos;
        List<Buffer> buffers;
        final List<TbB> tbs = new ArrayList<>();
    }

    private static final class TbB {
        int id, send, recv, chan;
        int seen; // <step> elements read, including rejected ones, so one bad step shifts no index
        SourcePos pos;
        final List<Step> steps = new ArrayList<>();
    }

    private MscclXmlImporter(Limits limits) {
        this.limits = limits;
    }

    /** Reads a whole MSCCL-IR document; {@code file} names it in messages. */
    public static Plan read(String file, InputStream in, Limits limits) {
        MscclXmlImporter imp = new MscclXmlImporter(limits);
        XmlDocumentReader.read(file, new Utf8Check(file, in), limits, imp);
        return imp.finish(file);
    }

    @Override
    public void start(XmlElement e, int depth) {
        if (skipFrom > 0) return;
        String expected = depth <= LEVELS.length ? LEVELS[depth - 1] : null;
        if (!e.name().equals(expected)) {
            d.error(e.pos(), depth == 1 ? "the root element must be <algo>, found <" + e.name() + ">"
                    : "unexpected element <" + e.name() + "> inside <" + LEVELS[Math.min(depth, LEVELS.length) - 2] + ">"
                    + (expected == null ? "" : " (expected <" + expected + ">)"));
            skipFrom = depth;
            return;
        }
        switch (depth) {
            case 1 -> {
                sawAlgo = true;
                header = AlgoHeader.read(e, d);
                if (header != null && header.ngpus() > limits.maxRanks()) {
                    throw new CompileException(ErrorKind.PLAN, e.pos(), "ngpus " + header.ngpus() + " exceeds the limit of "
                            + limits.maxRanks() + " ranks (raise it with --limit ranks=N)");
                }
            }
            case 2 -> startGpu(e);
            case 3 -> startTb(e);
            default -> {
                if (tb == null) return;
                if (++steps > limits.maxSteps()) {
                    throw new CompileException(ErrorKind.PLAN, e.pos(), "more than " + limits.maxSteps()
                            + " steps (raise the limit with --limit steps=N)");
                }
                Step s = StepReader.read(e, gpu.id, tb.seen++, d);
                if (s != null) tb.steps.add(s);
            }
        }
    }

    private void startGpu(XmlElement e) {
        Attrs a = new Attrs(e, d);
        int before = d.errorCount();
        int id = a.integer("id", 0);
        int in = a.integer("i_chunks", 0);
        int out = a.integer("o_chunks", 0);
        int scratch = a.integer("s_chunks", 0);
        if (d.errorCount() > before) {
            if (id >= 0) refusedGpus.add(id);
            else refusedGpuOfUnknownId = true;
            gpu = null;
            skipFrom = 2;
            return;
        }
        gpu = new GpuB();
        gpu.id = id;
        gpu.pos = e.pos();
        gpu.buffers = new ArrayList<>(List.of(new Buffer(Buffer.INPUT, BufferKind.INPUT, in),
                new Buffer(Buffer.OUTPUT, BufferKind.OUTPUT, out)));
        if (scratch > 0) gpu.buffers.add(new Buffer(Buffer.SCRATCH, BufferKind.SCRATCH, scratch));
        gpus.add(gpu);
    }

    private void startTb(XmlElement e) {
        if (gpu == null) return;
        Attrs a = new Attrs(e, d);
        int before = d.errorCount();
        TbB t = new TbB();
        t.id = a.integer("id", 0);
        t.send = a.integer("send");
        t.recv = a.integer("recv");
        t.chan = a.integer("chan", 0);
        t.pos = e.pos();
        if (header != null && t.chan != Attrs.BAD && t.chan >= header.nchannels()) {
            d.error(e.pos(), "chan " + t.chan + " is not below nchannels (" + header.nchannels() + ")");
        }
        if (d.errorCount() > before) {
            tb = null;
            skipFrom = 3;
            return;
        }
        if (gpu.tbs.size() >= limits.maxThreadblocksPerRank()) {
            throw new CompileException(ErrorKind.PLAN, e.pos(), "gpu " + gpu.id + " has more than "
                    + limits.maxThreadblocksPerRank() + " threadblocks (raise the limit with --limit threadblocks=N)");
        }
        // Ids are dense from 0, so an id past the limit implies that many threadblocks before it.
        if (t.id >= limits.maxThreadblocksPerRank()) {
            throw new CompileException(ErrorKind.PLAN, e.pos(), "gpu " + gpu.id + ": threadblock id " + t.id
                    + " is past the limit of " + limits.maxThreadblocksPerRank()
                    + " threadblocks (raise the limit with --limit threadblocks=N)");
        }
        tb = t;
        gpu.tbs.add(t);
    }

    @Override
    public void end(String name, int depth) {
        if (skipFrom > 0) {
            if (depth == skipFrom) skipFrom = 0;
            return;
        }
        if (depth == 3) tb = null;
        else if (depth == 2) gpu = null;
    }

    private Plan finish(String file) {
        if (!sawAlgo && !d.hasErrors()) d.error(SourcePos.of(file), "no <algo> element");
        if (header == null) {
            d.throwIfErrors(ErrorKind.PLAN);
            throw new IllegalStateException("no header and no error");
        }
        List<RankPlan> ranks = new ArrayList<>();
        GpuB[] byId = new GpuB[header.ngpus()];
        for (GpuB g : gpus) {
            if (g.id >= header.ngpus()) d.error(g.pos, "gpu id " + g.id + " is not below ngpus (" + header.ngpus() + ")");
            else if (byId[g.id] != null) d.error(g.pos, "gpu " + g.id + " is described twice (first at line " + byId[g.id].pos.line() + ")");
            else byId[g.id] = g;
        }
        for (int r = 0; r < byId.length; r++) {
            if (byId[r] == null) {
                if (!refusedGpus.contains(r) && !refusedGpuOfUnknownId) {
                    d.error(header.pos(), "gpu " + r + " is missing (ngpus is " + header.ngpus() + ")");
                }
                continue;
            }
            ranks.add(new RankPlan(r, byId[r].buffers, threadblocks(byId[r])));
        }
        d.throwIfErrors(ErrorKind.PLAN);
        Plan plan = new Plan(header.name(), header.collective(), header.ngpus(), header.chunkFactor(), header.inplace(),
                header.protocol(), 1, ranks, PlanFormat.MSCCL_XML, new java.util.TreeMap<>(header.attributes()), header.pos());
        PlanLimits.checkChunks(plan, 1, limits);
        PlanLimits.checkStepChunks(plan, limits);
        IrVerifier.verify(plan, d);
        d.throwIfErrors(ErrorKind.PLAN);
        return plan;
    }

    /** The gpu's threadblocks in id order; ids must be dense, as the executors require. */
    private List<Threadblock> threadblocks(GpuB g) {
        List<TbB> sorted = new ArrayList<>(g.tbs);
        sorted.sort(Comparator.comparingInt(t -> t.id));
        List<Threadblock> out = new ArrayList<>();
        int expect = 0;
        for (TbB t : sorted) {
            if (t.id < expect) {
                d.error(t.pos, "gpu " + g.id + ": threadblock id " + t.id + " is used twice");
                continue;
            }
            if (expect < t.id) {
                d.error(g.pos, "gpu " + g.id + ": " + (expect + 1 == t.id ? "threadblock " + expect + " is"
                        : "threadblocks " + expect + ".." + (t.id - 1) + " are") + " missing");
            }
            expect = t.id;
            out.add(new Threadblock(t.id, t.send, t.recv, t.chan, t.steps, t.pos));
            expect++;
        }
        return out;
    }
}
