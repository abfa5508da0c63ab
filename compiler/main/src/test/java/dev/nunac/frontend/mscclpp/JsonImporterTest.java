package dev.nunac.frontend.mscclpp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.ChunkRef;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Limits;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Step;
import dev.nunac.testkit.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MSCCL++ operations lowered to IR steps, and broken plans with exact messages. */
class JsonImporterTest {
    /** Two gpus; gpu 0 has a memory channel to 1 and remote buffers r1:scratch, r1:input; one threadblock. */
    static String plan(String ops) {
        String gpu0 = "{\"id\": 0, \"input_chunks\": 2, \"output_chunks\": 2, \"scratch_chunks\": 2,\n"
                + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [1]},"
                + " {\"channel_type\": \"switch\", \"buffer_type\": \"i\", \"rank_groups\": [{\"size\": 2, \"ranks\": [0, 1]}]}],\n"
                + " \"remote_buffers\": [{\"rank\": 1, \"type\": \"s\", \"access_channel_types\": [\"memory\"]},"
                + " {\"rank\": 1, \"type\": \"i\", \"access_channel_types\": [\"memory\"]}],\n"
                + " \"threadblocks\": [{\"id\": 0, \"ops\": [\n" + ops + "\n],"
                + " \"channels\": [{\"channel_type\": \"memory\", \"channel_ids\": [0]}, {\"channel_type\": \"switch\", \"channel_ids\": [0]}],"
                + " \"remote_buffer_refs\": [{\"access_channel_type\": \"memory\", \"remote_buffer_ids\": [0, 1]}]}]}";
        String gpu1 = "{\"id\": 1, \"input_chunks\": 2, \"output_chunks\": 2, \"scratch_chunks\": 2, \"threadblocks\": []}";
        return "{\"name\": \"p\", \"collective\": \"allreduce\", \"protocol\": \"Simple\", \"inplace\": true,\n"
                + "\"gpus\": [" + gpu0 + ",\n" + gpu1 + "]}\n";
    }

    static Plan read(String json) {
        return MscclppJsonImporter.read("p.json", json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
    }

    static List<Step> steps(String ops) {
        return read(plan(ops)).rank(0).tb(0).steps();
    }

    /** The steps {@code ops} lower to, checked to be of these kinds in this order. */
    static List<Step> lowered(String ops, OpKind... kinds) {
        List<Step> s = steps(ops);
        assertEquals(List.of(kinds), s.stream().map(Step::op).toList());
        return s;
    }

    static ChunkRef c(int rank, String buf, int index) {
        return ChunkRef.of(rank, buf, index);
    }

    static final String LOCAL_I0 = "{\"type\": \"i\", \"index\": 0, \"size\": 1}";
    static final String LOCAL_S1 = "{\"type\": \"s\", \"index\": 1, \"size\": 1}";
    static final String REMOTE_S0 = "{\"buffer_id\": 0, \"index\": 0, \"size\": 1}";
    static final String REMOTE_I1 = "{\"buffer_id\": 1, \"index\": 1, \"size\": 1}";

    static String op(String name, String src, String dst) {
        return "{\"name\": \"" + name + "\", \"src_buff\": [" + src + "], \"dst_buff\": [" + dst + "], \"channel_type\": \"memory\"}";
    }

    @Test
    void putGetCopy() {
        List<Step> s = steps(op("put", LOCAL_I0, REMOTE_S0) + "," + op("get", REMOTE_I1, LOCAL_S1) + "," + op("copy", LOCAL_I0, LOCAL_S1));
        assertEquals(new Step(0, OpKind.PUT, c(0, "input", 0), c(1, "scratch", 0), 1, List.of(), false, s.get(0).pos()), s.get(0));
        assertEquals(OpKind.GET, s.get(1).op());
        assertEquals(c(1, "input", 1), s.get(1).src());
        assertEquals(1, s.get(1).peer());
        assertEquals(OpKind.COPY, s.get(2).op());
        assertEquals(-1, s.get(2).peer());
    }

    @Test
    void signalAndWaitNameTheChannelsPeer() {
        List<Step> s = lowered("{\"name\": \"signal\", \"channel_ids\": [0], \"channel_type\": \"memory\"},"
                + "{\"name\": \"rlxwait\", \"channel_ids\": [0], \"channel_type\": \"memory\"}, {\"name\": \"flush\"}",
                OpKind.SIGNAL, OpKind.WAIT, OpKind.NOP);
        assertEquals(1, s.get(0).peer());
        assertEquals(1, s.get(1).peer());
    }

    @Test
    void remoteReduceThenStore() {
        // rres: i0 = i0 + r1:s0, then stored to r1:i1.
        List<Step> s = lowered(op("rres", LOCAL_I0 + "," + REMOTE_S0, LOCAL_I0 + "," + REMOTE_I1), OpKind.GET_REDUCE, OpKind.PUT);
        assertEquals(c(1, "scratch", 0), s.get(0).src());
        assertEquals(c(0, "input", 0), s.get(0).dst());
        assertEquals(c(1, "input", 1), s.get(1).dst());
    }

    @Test
    void localReduceIntoAnotherDestinationCopiesFirst() {
        List<Step> s = lowered(op("re", LOCAL_I0 + "," + LOCAL_S1, "{\"type\": \"o\", \"index\": 0, \"size\": 1}"), OpKind.COPY, OpKind.REDUCE);
        assertEquals(c(0, "output", 0), s.get(1).dst());
    }

    @Test
    void packetOpsMoveTheirData() {
        lowered(op("ppkt", LOCAL_I0, REMOTE_S0) + "," + op("upkt", LOCAL_S1, LOCAL_I0), OpKind.PUT, OpKind.COPY);
    }

    @Test
    void pipelineLowersItsNestedOps() {
        lowered("{\"name\": \"pipeline\", \"iter_context\": {\"unit_size\": 1, \"num_chunks\": 1}, \"ops\": ["
                + op("put", LOCAL_I0, REMOTE_S0) + ", {\"name\": \"nop\"}]}", OpKind.PUT, OpKind.NOP);
    }

    @Test
    void switchReduceReadsAndWritesEveryRankOfTheGroup() {
        String sw = "{\"switch_channel_id\": 0, \"index\": 1, \"size\": 1}";
        List<Step> s = lowered("{\"name\": \"glres\", \"src_buff\": [" + sw + "], \"dst_buff\": [" + sw + "], \"channel_type\": \"switch\"}",
                OpKind.GET_REDUCE, OpKind.PUT);
        assertEquals(c(1, "input", 1), s.get(0).src());
        assertEquals(c(0, "input", 1), s.get(0).dst());
        assertEquals(c(1, "input", 1), s.get(1).dst());
    }

    @Test
    void headerAndThreadblockShape() {
        Plan p = read(plan("{\"name\": \"nop\"}"));
        assertEquals(Collective.ALLREDUCE, p.collective());
        assertEquals(2, p.chunkFactor());
        assertEquals(-1, p.rank(0).tb(0).sendPeer());
        assertEquals(-1, p.rank(0).tb(0).recvPeer());
    }

    private static void fails(String json, ErrorKind kind, String message) {
        Outcome o = Outcome.of(() -> read(json));
        assertEquals(kind, o.kind());
        assertEquals(message, o.first());
    }

    @Test
    void unknownOperation() {
        fails(plan("{\"name\": \"frobnicate\"}"), ErrorKind.PLAN,
                "p.json:6:1: error: unknown operation 'frobnicate' (known: " + OpLowering.KNOWN + ")");
    }

    @Test
    void syntaxError() {
        fails("{\"name\": \"p\",,}", ErrorKind.INPUT,
                "p.json:1:14: error: malformed JSON: Unexpected character (',' (code 44)): was expecting double-quote to start field name");
    }

    @Test
    void duplicateKey() {
        fails("{\"name\": \"p\", \"name\": \"q\"}", ErrorKind.INPUT,
                "p.json:1:21: error: malformed JSON: Duplicate field 'name'");
    }

    @Test
    void missingGpus() {
        fails("{\"name\": \"p\", \"collective\": \"allreduce\", \"protocol\": \"LL\", \"inplace\": false}", ErrorKind.PLAN,
                "p.json:1:1: error: $: missing required field 'gpus'");
    }

    @Test
    void wrongType() {
        fails(plan("{\"name\": \"nop\"}").replace("\"inplace\": true", "\"inplace\": \"yes\""), ErrorKind.PLAN,
                "p.json:1:75: error: $.inplace: must be true or false, found string \"yes\"");
    }

    @Test
    void remoteBufferOutOfRange() {
        fails(plan(op("put", LOCAL_I0, "{\"buffer_id\": 5, \"index\": 0, \"size\": 1}")), ErrorKind.PLAN,
                "p.json:6:82: error: buffer_id 5 names no remote buffer of this threadblock");
    }

    @Test
    void gpuIdMismatch() {
        fails(plan("{\"name\": \"nop\"}").replace("{\"id\": 1,", "{\"id\": 3,"), ErrorKind.PLAN,
                "p.json:8:8: error: $.gpus[1].id: gpu 1 has id 3; ids must equal positions");
    }

    @Test
    void nestingLimit() {
        Outcome o = Outcome.of(() -> MscclppJsonImporter.read("p.json", "[[[[1]]]]".getBytes(StandardCharsets.UTF_8),
                Limits.DEFAULT.with("nesting", 3)));
        assertEquals(ErrorKind.INPUT, o.kind());
        assertEquals("p.json:1:5: error: JSON nested deeper than 3 levels (raise the limit with --limit nesting=N)", o.first());
    }

    @Test
    void switchChannelWithoutBufferType() {
        // Found by the fuzz campaign: a missing buffer_type was an internal error.
        String json = plan("{\"name\": \"nop\"}").replace("\"buffer_type\": \"i\", ", "");
        Outcome o = Outcome.of(() -> read(json));
        assertEquals(ErrorKind.PLAN, o.kind());
        assertEquals(List.of("p.json:3:64: error: $.gpus[0].channels[1]: missing required field 'buffer_type'"), o.messages());
    }
}
