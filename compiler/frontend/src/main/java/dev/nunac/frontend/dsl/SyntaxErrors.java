package dev.nunac.frontend.dsl;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.diag.Text;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

/** Routes ANTLR's syntax errors into diagnostics (never to the console); columns 1-based. */
final class SyntaxErrors extends BaseErrorListener {
    private final String file;
    private final Diagnostics diags;
    private int lastLine = -1;

    SyntaxErrors(String file, Diagnostics diags) {
        this.file = file;
        this.diags = diags;
    }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
                            String msg, RecognitionException e) {
        // One error per line: ANTLR's recovery tends to cascade on the same line.
        if (line == lastLine) return;
        lastLine = line;
        diags.error(new SourcePos(file, line, charPositionInLine + 1), clean(msg));
    }

    private static String clean(String msg) {
        return Text.parserMessage(msg.replace("<EOF>", "end of file"));
    }
}
