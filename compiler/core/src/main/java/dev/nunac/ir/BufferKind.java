package dev.nunac.ir;

/** Role of a per-rank buffer. MSCCL-IR letters: i, o, s. */
public enum BufferKind {
    INPUT('i'),
    OUTPUT('o'),
    SCRATCH('s');

    public final char letter;

    BufferKind(char letter) {
        this.letter = letter;
    }
}
