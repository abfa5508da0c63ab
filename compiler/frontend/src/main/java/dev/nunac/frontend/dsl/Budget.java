package dev.nunac.frontend.dsl;

import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Limits;
import dev.nunac.parse.NunaParser.ForStmtContext;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What a program's evaluation may spend: loop iterations, claimed before a loop runs, and
 * evaluation steps (iterations, statements, expressions), counted as they happen, so that a
 * loop body of any weight is bounded too. When either runs out, the error names the loop to
 * shrink: for iterations the one that ran most of them, which is not always the one asking.
 */
final class Budget {
    private final String file;
    private final Limits limits;
    private long iterations;
    private long evaluations;
    /** Per loop, the iterations it claimed and whether it is running: a loop inside others is entered once per outer iteration. */
    private final Map<ForStmtContext, Loop> loops = new IdentityHashMap<>();

    private static final class Loop {
        long ran;
        boolean running;
    }
    private ForStmtContext innermost;

    Budget(String file, Limits limits) {
        this.file = file;
        this.limits = limits;
    }

    /** Claims {@code count} iterations for loop {@code f} about to run; returns the loop it runs inside (for {@link #leave}). */
    ForStmtContext enter(ForStmtContext f, long from, long to, long count) {
        if (count > limits.maxLoopIterations() - iterations) throw spent(f, from, to, count);
        iterations += count;
        Loop l = loops.get(f);
        if (l == null) loops.put(f, l = new Loop());
        l.ran += count;
        l.running = true;
        ForStmtContext outer = innermost;
        innermost = f;
        return outer;
    }

    void leave(ForStmtContext f, ForStmtContext outer) {
        loops.get(f).running = false;
        innermost = outer;
    }

    /** One unit of evaluation work: a loop iteration, a statement or an expression. */
    void tick() {
        if (++evaluations <= limits.maxEvaluations()) return;
        SourcePos at = innermost == null ? SourcePos.of(file) : pos(innermost);
        throw new EvalError(at, "the plan takes more than " + limits.maxEvaluations() + " evaluation steps (loop iterations,"
                + " statements and expressions)" + (innermost == null ? "" : "; this loop was running when they ran out")
                + " (raise it with --limit evaluations=N)", true);
    }

    /** The asking loop itself, or one it runs inside, or else an earlier loop that ran nearly all: then both are named. */
    private EvalError spent(ForStmtContext f, long from, long to, long count) {
        String raise = " (raise it with --limit loop-iterations=N)";
        ForStmtContext most = null;
        for (Map.Entry<ForStmtContext, Loop> e : loops.entrySet()) {
            if (most == null || e.getValue().ran > loops.get(most).ran) most = e.getKey();
        }
        if (most == null || most == f || loops.get(most).running) {
            return new EvalError(pos(f), "loop over " + from + " .. " + to + " would run " + count
                    + " iterations; the plan may run at most " + limits.maxLoopIterations() + " loop iterations in all" + raise, true);
        }
        SourcePos asking = pos(f);
        return new EvalError(pos(most), "this loop ran " + loops.get(most).ran + " of the " + limits.maxLoopIterations()
                + " loop iterations the plan may run in all, so the loop at line " + asking.line() + ", column " + asking.col()
                + " cannot run its " + count + raise, true);
    }

    private SourcePos pos(ForStmtContext f) {
        return new SourcePos(file, f.getStart().getLine(), f.getStart().getCharPositionInLine() + 1);
    }
}
