package dev.nunac.frontend.dsl;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import dev.nunac.ir.Buffer;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Limits;
import dev.nunac.ir.PlanLimits;
import dev.nunac.ir.Protocol;
import dev.nunac.parse.NunaParser;
import dev.nunac.parse.NunaParser.*;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/**
 * Evaluates a parsed program: parameters (with command-line overrides), the header, and the
 * body's loops, conditions and lets, producing buffers and operations in program order. The
 * operations still name threadblock hints, not threadblocks: {@link ThreadblockAssignment}
 * makes the IR from them.
 */
final class ProgramInterpreter {
    /** Header and operations of an evaluated program. */
    record Result(String name, Collective collective, int ranks, int chunkFactor, boolean inplace, Protocol protocol,
                  int instances, Map<String, Integer> buffers, List<DslOp> ops, Map<String, Long> params, int root,
                  SourcePos pos) {}

    private final String file;
    private final Diagnostics diags;
    private final Limits limits;
    private final Set<SourcePos> reportedAt = new HashSet<>();
    private final Budget budget;
    /** Errors raised while evaluating, including those not reported again at a known position. */
    private long evalErrors;
    private long steps;
    /** The chunks the steps made so far name, every instance counted: bounded by the step-chunks limit. */
    private long stepChunks;
    private int instances = 1;

    // header, set by evalHeader
    private Collective collective;
    private int ranks;
    private int chunkFactor;
    private boolean inplace;
    private int root;
    private final Map<String, Integer> buffers = new LinkedHashMap<>();
    private final ArrayList<DslOp> ops = new ArrayList<>();

    ProgramInterpreter(String file, Diagnostics diags, Limits limits) {
        this.file = file;
        this.diags = diags;
        this.limits = limits;
        this.budget = new Budget(file, limits);
    }

    Result run(FileContext tree, Map<String, String> overrides, SourcePos cliPos) {
        Scope globals = new Scope(null);
        Map<String, Long> params = new LinkedHashMap<>();
        Set<String> declared = new HashSet<>();
        for (ParamDeclContext p : tree.paramDecl()) {
            String name = p.name.getText();
            if (!declared.add(name)) {
                diags.error(pos(p.name), "parameter '" + Text.shown(name) + "' is declared twice");
                continue;
            }
            Object v;
            if (overrides.containsKey(name)) {
                v = parseOverride(name, overrides.get(name), cliPos);
                if (v == null) continue;
            } else {
                try {
                    v = eval(p.expr(), globals);
                } catch (EvalError e) {
                    report(e);
                    continue;
                }
            }
            globals.define(name, v);
            if (v instanceof Long l) params.put(name, l);
            else params.put(name, ((Boolean) v) ? 1L : 0L);
        }
        for (String k : overrides.keySet()) {
            if (!declared.contains(k)) {
                diags.error(cliPos, "-D " + Text.shown(k) + ": the plan has no parameter '" + Text.shown(k) + "'"
                        + (declared.isEmpty() ? " (it declares none)" : " (it declares: " + some(sorted(declared)) + ")"));
            }
        }
        if (diags.hasErrors()) return null;
        ProgramContext prog = tree.program();
        String name = unquote(prog.name.getText());
        if (!Text.checkPrintable(name, "the plan name", pos(prog.name), diags)) return null;
        Protocol protocol = Protocol.SIMPLE;
        try {
            evalHeader(prog, globals);
            for (ProgramOptionContext o : prog.programOption()) {
                if (o instanceof ProtocolOptionContext po) {
                    String p = po.proto.getText();
                    protocol = Protocol.parse(p).orElseThrow(() -> new EvalError(pos(po.proto),
                            "unknown protocol '" + Text.shown(p) + "' (expected Simple, LL or LL128)", true));
                } else if (o instanceof InstancesOptionContext io) {
                    long n = evalLong(io.expr(), globals);
                    if (n < 1 || n > 1024) throw new EvalError(pos(io.expr()), "instances must be in 1..1024, got " + n, true);
                    instances = (int) n;
                }
            }
        } catch (EvalError e) {
            report(e);
            return null;
        }
        if (collective != Collective.CUSTOM) {
            buffers.put(Buffer.INPUT, collective.inputChunks(ranks, chunkFactor));
            buffers.put(Buffer.OUTPUT, collective.outputChunks(ranks, chunkFactor));
        }
        try {
            execBlock(prog.block(), new Scope(globals));
            ops.trimToSize();
        } catch (EvalError e) {
            report(e);
        }
        if (diags.hasErrors()) return null;
        return new Result(name, collective, ranks, chunkFactor, inplace, protocol, instances, buffers, ops, params, root,
                pos(prog.getStart()));
    }

    private static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        l.sort(null);
        return l;
    }

    private Object parseOverride(String name, String text, SourcePos cliPos) {
        String t = text.replace("_", ""); // no trim: ' 4' is not a number in any format
        if (t.equals("true")) return Boolean.TRUE;
        if (t.equals("false")) return Boolean.FALSE;
        try {
            if (Text.isAsciiInteger(t)) return Long.parseLong(t);
        } catch (NumberFormatException e) {
            // out of range: reported below
        }
        diags.error(cliPos, "-D " + Text.shown(name) + "=" + Text.shown(text) + ": not an integer or boolean"
                + (Text.isAsciiInteger(t) ? " (out of range)" : ""));
        return null;
    }

    /** Names for a message: all of a few, else the first ten and how many there are. */
    private static String some(java.util.Collection<String> names) {
        List<String> shown = new ArrayList<>();
        for (String n : names) {
            if (shown.size() == 10) return String.join(", ", shown) + ", ... (" + names.size() + " in all)";
            shown.add(Text.shown(n));
        }
        return String.join(", ", shown);
    }

    private void evalHeader(ProgramContext prog, Scope scope) {
        String kind = prog.kind.getText();
        collective = Collective.parse(kind).orElseThrow(() -> new EvalError(pos(prog.kind),
                "unknown collective '" + Text.shown(kind) + "' (expected allgather, allreduce, reducescatter, alltoall, broadcast, reduce or custom)", true));
        Long ranksV = null;
        long cf = 1;
        boolean inp = false;
        long rootV = 0;
        List<ArgContext> args = prog.argList() == null ? List.of() : prog.argList().arg();
        int positional = 0;
        for (ArgContext a : args) {
            String n = a.name == null ? (positional++ == 0 ? "ranks" : null) : a.name.getText();
            if (n == null) throw new EvalError(pos(a), "only the first header argument (ranks) may be positional", true);
            ExprContext e = exprOf(a, "header argument '" + Text.shown(n) + "'");
            switch (n) {
                case "ranks" -> ranksV = evalLong(e, scope);
                case "chunk_factor" -> cf = evalLong(e, scope);
                case "inplace" -> inp = evalBool(e, scope);
                case "root" -> rootV = evalLong(e, scope);
                default -> throw new EvalError(pos(a), "unknown header argument '" + Text.shown(n)
                        + "' (expected ranks, chunk_factor, inplace, root)", true);
            }
        }
        if (ranksV == null) throw new EvalError(pos(prog.kind), "the header must give the number of ranks", true);
        if (ranksV < 1 || ranksV > limits.maxRanks()) {
            throw new EvalError(pos(prog.kind), "ranks must be in 1.." + limits.maxRanks() + ", got " + ranksV, true);
        }
        if (cf < 1 || cf > 1_000_000) throw new EvalError(pos(prog.kind), "chunk_factor must be in 1..1000000, got " + cf, true);
        ranks = ranksV.intValue();
        chunkFactor = (int) cf;
        inplace = inp;
        if (rootV < 0 || rootV >= ranks) throw new EvalError(pos(prog.kind), "root " + rootV + " is not a rank", true);
        root = (int) rootV;
        if (ranks * (long) chunkFactor > 100_000_000L) {
            throw new EvalError(pos(prog.kind), "ranks * chunk_factor is too large (" + ranks * (long) chunkFactor + ")", true);
        }
    }

    private ExprContext exprOf(ArgContext a, String what) {
        ExprContext e = exprs.computeIfAbsent(a, x -> x.value.expr());
        if (e == null) throw new EvalError(pos(a), what + " must be an expression, not a chunk", false);
        return e;
    }

    // The parse tree is walked once per loop iteration; ANTLR's accessors scan the children on
    // every call (with an iterator each, which C1 does not optimise away), so the ones the loops
    // reach are looked up once per node.
    private final java.util.IdentityHashMap<ArgContext, ExprContext> exprs = new java.util.IdentityHashMap<>();
    private final java.util.IdentityHashMap<BlockContext, Body> bodies = new java.util.IdentityHashMap<>();
    /** The one child an accessor finds: a parenthesis's or a unary operator's expression, a loop's block, an operation's chunk. */
    private final java.util.IdentityHashMap<ParserRuleContext, ParserRuleContext> onlyChild = new java.util.IdentityHashMap<>();

    /** A block's statements, and whether any of them defines a name (a let): only then does it need a scope of its own. */
    private record Body(StatementContext[] statements, boolean defines) {
        static Body of(BlockContext b) {
            StatementContext[] st = b.statement().toArray(new StatementContext[0]);
            boolean defines = false;
            for (StatementContext s : st) defines |= s instanceof LetStmtContext;
            return new Body(st, defines);
        }
    }

    private Body body(BlockContext b) {
        Body known = bodies.get(b);
        if (known == null) bodies.put(b, known = Body.of(b));
        return known;
    }

    @SuppressWarnings("unchecked")
    private <T extends ParserRuleContext> T child(ParserRuleContext parent, java.util.function.Function<ParserRuleContext, T> find) {
        ParserRuleContext c = onlyChild.get(parent);
        if (c == null) onlyChild.put(parent, c = find.apply(parent));
        return (T) c;
    }

    // ---- statements ----

    /**
     * Runs a block in a scope of its own below {@code scope}; a block that defines no names runs
     * in {@code scope} itself, which nothing can tell apart and saves a scope per iteration.
     */
    private void execNested(BlockContext b, Scope scope) {
        Body body = body(b);
        execBody(body, body.defines ? new Scope(scope) : scope);
    }

    private void execBlock(BlockContext b, Scope scope) {
        execBody(body(b), scope);
    }

    private void execBody(Body b, Scope scope) {
        StatementContext[] st = b.statements;
        for (int i = 0; i < st.length; i++) {
            try {
                exec(st[i], scope);
            } catch (EvalError e) {
                if (e.fatal) throw e;
                report(e);
            }
        }
    }

    private void exec(StatementContext s, Scope scope) {
        budget.tick();
        if (s instanceof BufferStmtContext b) {
            String n = b.name.getText();
            long size = evalLong(b.size, scope);
            if (size < 0 || size > 100_000_000L) throw new EvalError(pos(b.size), "buffer size must be in 0..100000000, got " + size, false);
            boolean collectiveBuffer = n.equals(Buffer.INPUT) || n.equals(Buffer.OUTPUT);
            if (collectiveBuffer && collective != Collective.CUSTOM) {
                throw new EvalError(pos(b.name), "buffer '" + Text.shown(n) + "' is sized by the collective (" + buffers.get(n)
                        + " chunks); only custom collectives declare it", false);
            }
            if (buffers.containsKey(n)) throw new EvalError(pos(b.name), "buffer '" + Text.shown(n) + "' is declared twice", false);
            buffers.put(n, (int) size);
        } else if (s instanceof ForStmtContext f) {
            execFor(f, scope);
        } else if (s instanceof IfStmtContext i) {
            if (evalBool(i.cond, scope)) execNested(i.then, scope);
            else if (i.elseIf != null) exec(i.elseIf, scope);
            else if (i.otherwise != null) execNested(i.otherwise, scope);
        } else if (s instanceof LetStmtContext l) {
            String n = l.name.getText();
            if (scope.definedHere(n)) throw new EvalError(pos(l.name), "'" + Text.shown(n) + "' is already defined in this block", false);
            scope.define(n, eval(l.expr(), scope));
        } else if (s instanceof RequireStmtContext r) {
            if (!evalBool(r.cond, scope)) {
                String msg = r.message == null ? r.cond.getText() : unquote(r.message.getText());
                throw new EvalError(pos(r), "requirement failed: " + (msg.length() > 200 ? Text.shown(msg) : Text.escape(msg)), true);
            }
        } else if (s instanceof ChunkOpStmtContext c) {
            execChunkOp(c, scope);
        } else if (s instanceof CallStmtContext c) {
            execCall(c, scope);
        } else if (s instanceof BlockStmtContext b) {
            execNested(b.block(), scope);
        }
    }

    private void execFor(ForStmtContext f, Scope scope) {
        String var = f.var.getText();
        long from = evalLongFatal(f.from, scope);
        long to = evalLongFatal(f.to, scope);
        long by = f.by == null ? 1 : evalLongFatal(f.by, scope);
        if (by == 0) throw new EvalError(pos(f.by), "loop step must not be 0", true);
        long count = count(from, to, by);
        ForStmtContext outer = budget.enter(f, from, to, count);
        try {
            Body block = body(child(f, x -> ((ForStmtContext) x).block()));
            // One scope for every iteration, emptied before each: no iteration can see another's names.
            Scope body = new Scope(scope);
            long v = from;
            for (long k = 0; k < count; k++, v += by) {
                budget.tick();
                body.clear();
                body.define(var, v);
                long errorsBefore = evalErrors;
                execBody(block, body);
                // The next iterations would mostly repeat the error, at the cost of building it again each time.
                if (evalErrors > errorsBefore) break;
            }
        } finally {
            budget.leave(f, outer);
        }
    }

    /** Iterations of {@code from .. to by by}; Long.MAX_VALUE for a range wider than a long can hold. */
    private static long count(long from, long to, long by) {
        if (by > 0 ? to <= from : to >= from) return 0;
        long span = by > 0 ? to - from : from - to;
        if (span <= 0) return Long.MAX_VALUE; // the difference overflowed
        long step = by > 0 ? by : (by == Long.MIN_VALUE ? Long.MAX_VALUE : -by);
        return span / step + (span % step == 0 ? 0 : 1);
    }

    private record Args(Map<String, ArgContext> named, List<ArgContext> positional) {}

    private static final Args NO_ARGS = new Args(Map.of(), List.of());
    // An argument list's shape does not change between loop iterations: split it once.
    private final java.util.IdentityHashMap<ArgListContext, Args> argsOf = new java.util.IdentityHashMap<>();

    private Args split(ArgListContext list, String op, Set<String> allowedNames) {
        if (list == null) return NO_ARGS;
        Args known = argsOf.get(list);
        if (known != null) return known;
        Args a = splitOnce(list, op, allowedNames);
        argsOf.put(list, a);
        return a;
    }

    /** The argument list of an operation statement, found once per statement (null: none). */
    private ArgListContext argList(ParserRuleContext stmt, java.util.function.Function<ParserRuleContext, ArgListContext> find) {
        if (argListOf.containsKey(stmt)) return argListOf.get(stmt);
        ArgListContext l = find.apply(stmt);
        argListOf.put(stmt, l);
        return l;
    }

    private final java.util.IdentityHashMap<ParserRuleContext, ArgListContext> argListOf = new java.util.IdentityHashMap<>();

    private Args splitOnce(ArgListContext list, String op, Set<String> allowedNames) {
        Map<String, ArgContext> named = new LinkedHashMap<>();
        List<ArgContext> positional = new ArrayList<>();
        if (list != null) {
            for (ArgContext a : list.arg()) {
                if (a.name == null) {
                    if (!named.isEmpty()) throw new EvalError(pos(a), "positional argument after a named one", false);
                    positional.add(a);
                } else {
                    String n = a.name.getText();
                    if (!allowedNames.contains(n)) {
                        throw new EvalError(pos(a.name), "unknown argument '" + Text.shown(n) + "' for " + op + " (expected: "
                                + String.join(", ", sorted(allowedNames)) + ")", false);
                    }
                    if (named.put(n, a) != null) throw new EvalError(pos(a.name), "argument '" + Text.shown(n) + "' given twice", false);
                }
            }
        }
        return new Args(Map.copyOf(named), List.copyOf(positional));
    }

    private int hint(Args a, String name, Scope scope) {
        ArgContext c = a.named.get(name);
        if (c == null) return -1;
        long v = evalLong(exprOf(c, name), scope);
        if (v < 0 || v >= limits.maxThreadblocksPerRank()) {
            throw new EvalError(pos(c), name + " must be in 0.." + (limits.maxThreadblocksPerRank() - 1) + ", got " + v, false);
        }
        return (int) v;
    }

    private static final Set<String> TWO_SIDED = Set.of("sendtb", "recvtb", "ch", "tb");
    private static final Set<String> ONE_SIDED = Set.of("tb", "ch");

    private void execChunkOp(ChunkOpStmtContext c, Scope scope) {
        String op = c.op.getText();
        ChunkRef self = chunk(child(c, x -> ((ChunkOpStmtContext) x).chunkRef()), scope);
        SourcePos at = pos(c.op);
        ArgListContext args = argList(c, x -> ((ChunkOpStmtContext) x).argList());
        switch (op) {
            case "copy" -> {
                Args a = split(args, "copy", TWO_SIDED);
                ChunkRef dst = target(a, 3, "copy(rank, buffer, index)", self.count(), scope, c);
                int ch = channel(a, scope);
                emit(new DslOp(DslOp.Kind.COPY, self, dst, -1, -1, hint(a, "sendtb", scope), hint(a, "recvtb", scope),
                        hint(a, "tb", scope), ch, at));
            }
            case "reduce" -> {
                Args a = split(args, "reduce", TWO_SIDED);
                if (a.positional.size() != 1 || a.positional.get(0).value.chunkRef() == null) {
                    throw new EvalError(at, "reduce takes one chunk: c.reduce(chunk(rank, buffer, index))", false);
                }
                ChunkRef other = chunk(a.positional.get(0).value.chunkRef(), scope);
                if (other.count() != self.count()) {
                    throw new EvalError(at, "reduce of " + self.count() + " chunks with " + other.count() + " chunks", false);
                }
                emit(new DslOp(DslOp.Kind.REDUCE, other, self, -1, -1, hint(a, "sendtb", scope), hint(a, "recvtb", scope),
                        hint(a, "tb", scope), channel(a, scope), at));
            }
            case "put", "get" -> {
                Args a = split(args, op, ONE_SIDED);
                ChunkRef remote = target(a, 3, op + "(rank, buffer, index)", self.count(), scope, c);
                if (remote.rank() == self.rank()) throw new EvalError(at, op + " needs a peer rank other than " + self.rank(), false);
                boolean put = op.equals("put");
                emit(new DslOp(put ? DslOp.Kind.PUT : DslOp.Kind.GET, put ? self : remote, put ? remote : self,
                        self.rank(), remote.rank(), -1, -1, hint(a, "tb", scope), channel(a, scope), at));
            }
            default -> throw new EvalError(at, "unknown chunk operation '" + Text.shown(op) + "' (expected copy, reduce, put or get)", false);
        }
    }

    private void execCall(CallStmtContext c, Scope scope) {
        String op = c.op.getText();
        SourcePos at = pos(c.op);
        if (!op.equals("signal") && !op.equals("wait")) {
            throw new EvalError(at, "unknown operation '" + Text.shown(op) + "' (expected signal or wait, or chunk(...).copy/reduce/put/get)", false);
        }
        Args a = split(argList(c, x -> ((CallStmtContext) x).argList()), op, ONE_SIDED);
        if (a.positional.size() != 2) throw new EvalError(at, op + " takes two ranks: " + op + "(rank, peer)", false);
        int rank = rank(exprOf(a.positional.get(0), "rank"), scope);
        int peer = rank(exprOf(a.positional.get(1), "peer"), scope);
        if (rank == peer) throw new EvalError(at, op + " needs a peer other than the rank itself (" + rank + ")", false);
        emit(new DslOp(op.equals("signal") ? DslOp.Kind.SIGNAL : DslOp.Kind.WAIT, null, null, rank, peer, -1, -1,
                hint(a, "tb", scope), channel(a, scope), at));
    }

    private void emit(DslOp op) {
        ops.add(op);
        // Counted as the steps the operations become (a copy between ranks is a send and a
        // receive) in every instance, so an oversized plan stops here, before it is built.
        boolean twoSteps = (op.kind() == DslOp.Kind.COPY || op.kind() == DslOp.Kind.REDUCE) && op.src().rank() != op.dst().rank();
        steps += (twoSteps ? 2 : 1) * (long) instances;
        if (steps > limits.maxSteps()) {
            throw new EvalError(op.pos(), "the plan has more than " + limits.maxSteps()
                    + " steps (raise it with --limit steps=N)", true);
        }
        int count = op.src() != null ? op.src().count() : op.dst() != null ? op.dst().count() : 0;
        stepChunks += (twoSteps ? 2L : 1L) * count * instances;
        if (stepChunks > limits.maxStepChunks()) throw new EvalError(op.pos(), PlanLimits.stepChunksMessage(limits), true);
    }

    private int channel(Args a, Scope scope) {
        ArgContext c = a.named.get("ch");
        if (c == null) return 0;
        long v = evalLong(exprOf(c, "ch"), scope);
        if (v < 0 || v > 1023) throw new EvalError(pos(c), "ch must be in 0..1023, got " + v, false);
        return (int) v;
    }

    private ChunkRef target(Args a, int n, String usage, int count, Scope scope, ParserRuleContext at) {
        if (a.positional.size() != n) throw new EvalError(pos(at), "expected " + usage, false);
        int rank = rank(exprOf(a.positional.get(0), "rank"), scope);
        ExprContext bufE = exprOf(a.positional.get(1), "buffer");
        if (!(bufE instanceof NameExprContext ne)) throw new EvalError(pos(bufE), "expected a buffer name", false);
        String buf = ne.getStart().getText();
        long idx = evalLong(exprOf(a.positional.get(2), "index"), scope);
        return checked(rank, buf, idx, count, pos(a.positional.get(1)));
    }

    private ChunkRef chunk(ChunkRefContext c, Scope scope) {
        int rank = rank(c.rank, scope);
        long idx = evalLong(c.index, scope);
        long count = c.count == null ? 1 : evalLong(c.count, scope);
        if (count < 1) throw new EvalError(pos(c.count), "chunk count must be at least 1, got " + count, false);
        return checked(rank, c.buffer.getText(), idx, count, pos(c.buffer));
    }

    private ChunkRef checked(int rank, String buf, long idx, long count, SourcePos at) {
        Integer size = buffers.get(buf);
        if (size == null) {
            throw new EvalError(at, "unknown buffer '" + Text.shown(buf) + "' (declared: " + some(buffers.keySet()) + ")", false);
        }
        int cap = size;
        // Compared without idx + count, which wraps past 2^63 - 1 and would let a huge index through as a negative one.
        if (idx < 0 || count > cap || idx > cap - count) {
            String range = count == 1 ? "index " + idx
                    : idx > Long.MAX_VALUE - (count - 1) ? count + " chunks from index " + idx : "chunks " + idx + ".." + (idx + count - 1);
            throw new EvalError(at, range + " is out of bounds for buffer '" + Text.shown(buf) + "' of " + cap + " chunks on rank " + rank, false);
        }
        return new ChunkRef(rank, buf, (int) idx, (int) count);
    }

    private int rank(ExprContext e, Scope scope) {
        long r = evalLong(e, scope);
        if (r < 0 || r >= ranks) throw new EvalError(pos(e), "rank " + r + " is out of range 0.." + (ranks - 1), false);
        return (int) r;
    }

    // ---- expressions ----

    private long evalLongFatal(ExprContext e, Scope s) {
        try {
            return evalLong(e, s);
        } catch (EvalError err) {
            throw new EvalError(err.pos, err.getMessage(), true);
        }
    }

    /**
     * An integer expression's value. Literals, names and arithmetic are computed here without
     * boxing each intermediate value (C1 keeps every box); the rest go through {@link #eval}.
     * Either way each node costs one evaluation step and reports the same errors.
     */
    private long evalLong(ExprContext e, Scope s) {
        if (e instanceof IntExprContext i) {
            budget.tick();
            return literal(i);
        }
        if (e instanceof NameExprContext n) {
            budget.tick();
            if (name(n, s) instanceof Long l) return l;
        } else if (e instanceof MulExprContext m) {
            budget.tick();
            return mul(m, s);
        } else if (e instanceof AddExprContext a) {
            budget.tick();
            return add(a, s);
        } else if (eval(e, s) instanceof Long l) {
            return l;
        }
        throw new EvalError(pos(e), "expected an integer, found a boolean", false);
    }

    private boolean evalBool(ExprContext e, Scope s) {
        Object v = eval(e, s);
        if (v instanceof Boolean b) return b;
        throw new EvalError(pos(e), "expected a boolean (a comparison), found an integer", false);
    }

    private final java.util.IdentityHashMap<IntExprContext, Long> literals = new java.util.IdentityHashMap<>();

    private Object eval(ExprContext e, Scope s) {
        budget.tick();
        if (e instanceof ParenExprContext p) return eval(child(p, x -> ((ParenExprContext) x).expr()), s);
        if (e instanceof IntExprContext i) return literal(i);
        if (e instanceof BoolExprContext b) return b.TRUE() != null;
        if (e instanceof NameExprContext n) return name(n, s);
        if (e instanceof UnaryExprContext u) {
            ExprContext operand = child(u, x -> ((UnaryExprContext) x).expr());
            if (u.op.getType() == NunaParser.MINUS) {
                try {
                    return Math.negateExact(evalLong(operand, s));
                } catch (ArithmeticException x) {
                    throw overflow(e);
                }
            }
            return !evalBool(operand, s);
        }
        if (e instanceof MulExprContext m) return mul(m, s);
        if (e instanceof AddExprContext a) return add(a, s);
        if (e instanceof RelExprContext r) {
            long x = evalLong(r.left, s), y = evalLong(r.right, s);
            return switch (r.op.getType()) {
                case NunaParser.LT -> x < y;
                case NunaParser.LE -> x <= y;
                case NunaParser.GT -> x > y;
                default -> x >= y;
            };
        }
        if (e instanceof EqExprContext q) {
            Object x = eval(q.left, s), y = eval(q.right, s);
            if (x.getClass() != y.getClass()) throw new EvalError(pos(e), "cannot compare an integer with a boolean", false);
            boolean eq = x.equals(y);
            return q.op.getType() == NunaParser.EQ ? eq : !eq;
        }
        if (e instanceof AndExprContext a) return evalBool(a.left, s) && evalBool(a.right, s);
        if (e instanceof OrExprContext o) return evalBool(o.left, s) || evalBool(o.right, s);
        if (e instanceof CondExprContext c) return evalBool(c.cond, s) ? eval(c.yes, s) : eval(c.no, s);
        throw new IllegalStateException("unhandled expression " + e.getClass().getSimpleName());
    }

    private Long literal(IntExprContext i) {
        Long v = literals.get(i);
        if (v != null) return v;
        String text = i.getStart().getText();
        try {
            v = Long.parseLong(text.indexOf('_') < 0 ? text : text.replace("_", ""));
        } catch (NumberFormatException x) {
            throw new EvalError(pos(i), "integer literal " + Text.shown(text) + " is too large", false);
        }
        literals.put(i, v);
        return v;
    }

    private Object name(NameExprContext n, Scope s) {
        String name = n.getStart().getText();
        Object v = s.lookup(name);
        if (v == null) throw new EvalError(pos(n), "undefined name '" + Text.shown(name) + "'", false);
        return v;
    }

    private long mul(MulExprContext m, Scope s) {
        long a = evalLong(m.left, s), b = evalLong(m.right, s);
        try {
            return switch (m.op.getType()) {
                case NunaParser.STAR -> Math.multiplyExact(a, b);
                case NunaParser.SLASH -> {
                    if (b == 0) throw divZero(m);
                    // the one quotient that overflows, which floorDiv wraps around to -2^63
                    if (a == Long.MIN_VALUE && b == -1) throw overflow(m);
                    yield Math.floorDiv(a, b);
                }
                default -> { if (b == 0) throw divZero(m); yield Math.floorMod(a, b); }
            };
        } catch (ArithmeticException x) {
            throw overflow(m);
        }
    }

    private long add(AddExprContext a, Scope s) {
        long x = evalLong(a.left, s), y = evalLong(a.right, s);
        try {
            return a.op.getType() == NunaParser.PLUS ? Math.addExact(x, y) : Math.subtractExact(x, y);
        } catch (ArithmeticException ex) {
            throw overflow(a);
        }
    }

    private EvalError divZero(MulExprContext m) {
        return new EvalError(pos(m.op), "division by zero", false);
    }

    private EvalError overflow(ExprContext e) {
        return new EvalError(pos(e), "integer overflow in " + Text.shown(e.getText()), false);
    }

    // ---- positions and reporting ----

    private void report(EvalError e) {
        evalErrors++;
        // Inside loops one mistake repeats per iteration: keep the first at each position.
        if (reportedAt.add(e.pos)) diags.error(e.pos, e.getMessage());
    }

    private SourcePos pos(ParserRuleContext c) {
        return pos(c.getStart());
    }

    /** One position per token, shared by every operation a loop makes at it (and by their steps). */
    private SourcePos pos(Token t) {
        SourcePos p = positions.get(t);
        if (p == null) positions.put(t, p = new SourcePos(file, t.getLine(), t.getCharPositionInLine() + 1));
        return p;
    }

    private final java.util.IdentityHashMap<Token, SourcePos> positions = new java.util.IdentityHashMap<>();

    /** A string literal's text: the lexer admits the escapes \\" \\\\ \\n \\t, read here left to right. */
    static String unquote(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() - 1) {
                char e = s.charAt(++i);
                b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
