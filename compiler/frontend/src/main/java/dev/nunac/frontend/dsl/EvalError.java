package dev.nunac.frontend.dsl;

import dev.nunac.diag.SourcePos;

/** Aborts evaluation of the current statement with a positioned message. */
final class EvalError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient SourcePos pos;
    /** Fatal errors stop the whole program (a loop bound that cannot be evaluated, a limit). */
    final boolean fatal;

    EvalError(SourcePos pos, String message, boolean fatal) {
        super(message, null, false, false);
        this.pos = pos;
        this.fatal = fatal;
    }
}
