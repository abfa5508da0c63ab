package dev.nunac.frontend.dsl;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Limits;
import dev.nunac.parse.NunaLexer;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Token;

/**
 * The lexer under the plan's bounds, applied while tokens are made rather than after: more
 * tokens than the element limit is an INPUT error at once, and the stream ends at the first
 * bracket nested past the nesting limit (the front end reports it), so a file of millions of
 * '(' is never held as millions of tokens.
 */
final class BoundedLexer extends NunaLexer {
    private final String file;
    private final Limits limits;
    private long count;
    private int depth;
    private boolean cut;

    BoundedLexer(CharStream in, String file, Limits limits) {
        super(in);
        this.file = file;
        this.limits = limits;
    }

    @Override
    public Token nextToken() {
        if (cut) return emitEOF();
        Token t = super.nextToken();
        if (++count > limits.maxElements()) {
            throw new CompileException(ErrorKind.INPUT, new SourcePos(file, t.getLine(), t.getCharPositionInLine() + 1),
                    "more than " + limits.maxElements() + " tokens (raise the limit with --limit elements=N)");
        }
        int type = t.getType();
        if (type == LPAREN || type == LBRACE) cut = ++depth > limits.maxNesting();
        else if (type == RPAREN || type == RBRACE) depth = Math.max(0, depth - 1);
        return t;
    }
}
