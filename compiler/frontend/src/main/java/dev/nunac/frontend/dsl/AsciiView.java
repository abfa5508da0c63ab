package dev.nunac.frontend.dsl;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.misc.Interval;

/**
 * The program text as the lexer sees it: every code point past ASCII reads as '`'. No lexer
 * rule tells non-ASCII characters apart, nor uses '`', so the tokens are the same; but ANTLR's
 * lexer caches its transitions for ASCII only and computes every other one afresh, which made a
 * comment of 30 million 'é' take ten seconds. Token text, positions and names come from the
 * real text.
 */
final class AsciiView implements CharStream {
    private final CharStream text;

    AsciiView(CharStream text) {
        this.text = text;
    }

    @Override
    public int LA(int i) {
        int c = text.LA(i);
        return c > 127 ? '`' : c;
    }

    @Override
    public String getText(Interval interval) {
        return text.getText(interval);
    }

    @Override
    public void consume() {
        text.consume();
    }

    @Override
    public int mark() {
        return text.mark();
    }

    @Override
    public void release(int marker) {
        text.release(marker);
    }

    @Override
    public int index() {
        return text.index();
    }

    @Override
    public void seek(int index) {
        text.seek(index);
    }

    @Override
    public int size() {
        return text.size();
    }

    @Override
    public String getSourceName() {
        return text.getSourceName();
    }
}
