package dev.nunac.frontend.dsl;

import dev.nunac.diag.SourcePos;
import dev.nunac.ir.ChunkRef;

/**
 * One operation of a DSL program after evaluation, in program order: the input of threadblock
 * assignment. {@code rank} is the executing rank of one-sided ops (-1 for copy and reduce,
 * whose ranks come from their chunks); hints are -1 when the program gave none.
 */
record DslOp(Kind kind, ChunkRef src, ChunkRef dst, int rank, int peer, int sendTb, int recvTb, int tb, int channel,
             SourcePos pos) {
    enum Kind { COPY, REDUCE, PUT, GET, SIGNAL, WAIT }
}
