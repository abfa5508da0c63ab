package dev.nunac.frontend.mscclpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Limits;
import dev.nunac.ir.OpKind;
import dev.nunac.ir.Plan;
import dev.nunac.ir.Step;
import dev.nunac.passes.check.CheckPass;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the checker makes of one-sided MSCCL++ plans: LL data that carries its own flag,
 * threadblock groups, and signals paired per channel.
 */
class PacketAndGroupCheckTest {
    /** A two-gpu allgather (1 chunk per rank) whose gpus have {@code channels} memory channels to each other. */
    static String plan(String protocol, int channels, String tbs0, String tbs1) {
        String conn0 = "[" + "1, ".repeat(channels - 1) + "1]";
        String conn1 = "[" + "0, ".repeat(channels - 1) + "0]";
        return "{\"name\": \"p\", \"collective\": \"allgather\", \"protocol\": \"" + protocol + "\", \"inplace\": true,\n"
                + "\"gpus\": [" + gpu(0, conn0, tbs0) + ",\n" + gpu(1, conn1, tbs1) + "]}\n";
    }

    static String gpu(int id, String connected, String tbs) {
        return "{\"id\": " + id + ", \"input_chunks\": 1, \"output_chunks\": 2, \"scratch_chunks\": 2,"
                + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": " + connected + "}],"
                + " \"remote_buffers\": [{\"rank\": " + (1 - id) + ", \"type\": \"s\", \"access_channel_types\": [\"memory\"]}],"
                + " \"threadblocks\": [" + tbs + "]}";
    }

    /** A threadblock {@code id} with the gpu's channels {@code ch} and the remote scratch. */
    static String tb(int id, String ch, String... ops) {
        return "{\"id\": " + id + ", \"channels\": [{\"channel_type\": \"memory\", \"channel_ids\": " + ch + "}],"
                + " \"remote_buffer_refs\": [{\"access_channel_type\": \"memory\", \"remote_buffer_ids\": [0]}],"
                + " \"ops\": [" + String.join(", ", ops) + "]}";
    }

    static String op(String name, String src, String dst, String extra) {
        return "{\"name\": \"" + name + "\", \"src_buff\": [" + src + "], \"dst_buff\": [" + dst + "], \"channel_type\": \"memory\""
                + extra + "}";
    }

    static String local(String t, int i) {
        return "{\"type\": \"" + t + "\", \"index\": " + i + ", \"size\": 1}";
    }

    static String remote(int i) {
        return "{\"buffer_id\": 0, \"index\": " + i + ", \"size\": 1}";
    }

    static String sync(String name, int channelId) {
        return "{\"name\": \"" + name + "\", \"channel_ids\": [" + channelId + "], \"channel_type\": \"memory\"}";
    }

    static Plan read(String json) {
        return MscclppJsonImporter.read("p.json", json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
    }

    static List<String> check(String json) {
        Diagnostics d = new Diagnostics();
        CheckPass.check(read(json), d);
        return d.all().stream().map(x -> x.message()).toList();
    }

    /** Each gpu unpacks its peer's chunk in an earlier threadblock than the one that sends its own. */
    static String exchange(String protocol) {
        String unpack = op("upkt", local("s", 0), local("o", 1), "");
        String put = op("ppkt", local("i", 0), remote(0), "");
        String unpack1 = op("upkt", local("s", 0), local("o", 0), "");
        return plan(protocol, 1, tb(0, "[]", unpack) + ", " + tb(1, "[0]", put), tb(0, "[]", unpack1) + ", " + tb(1, "[0]", put));
    }

    @Test
    void llReaderWaitsForPacketData() {
        assertEquals(List.of(), check(exchange("LL")));
    }

    @Test
    void simpleProtocolHasNoImplicitWait() {
        // Without flagged data nothing orders the unpack after the peer's put.
        assertTrue(check(exchange("Simple")).get(0).startsWith("postcondition of allgather fails at rank 0, output[1]"));
    }

    @Test
    void llDataThatNeverArrivesIsADeadlockNamingTheStep() {
        String unpack = op("upkt", local("s", 1), local("o", 1), "");
        String put = op("ppkt", local("i", 0), remote(0), "");
        List<String> errors = check(plan("LL", 1, tb(0, "[]", unpack) + ", " + tb(1, "[0]", put),
                tb(0, "[]", op("upkt", local("s", 0), local("o", 0), "")) + ", " + tb(1, "[0]", put)));
        assertEquals(List.of("deadlock: 1 threadblock(s) can never finish; rank 0 threadblock 0 step 0 (cpy) waits for"
                + " r0:scratch[1] to be written, which never happens (LL data carries its own flag: a reader waits for it)"), errors);
    }

    @Test
    void threadblockGroupMovesEachChunkOnce() {
        String g0 = ", \"tbg_info\": {\"tb_id\": 0, \"tbg_size\": 2}";
        String g1 = ", \"tbg_info\": {\"tb_id\": 1, \"tbg_size\": 2}";
        // gpu 0 reduces its input with gpu 1's packet (a group of two), a reduction done twice if each member applied it.
        String json = "{\"name\": \"p\", \"collective\": \"allreduce\", \"protocol\": \"LL\", \"inplace\": true, \"gpus\": ["
                + "{\"id\": 0, \"input_chunks\": 1, \"output_chunks\": 1, \"scratch_chunks\": 1,"
                + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [1]}],"
                + " \"remote_buffers\": [{\"rank\": 1, \"type\": \"s\", \"access_channel_types\": [\"memory\"]}], \"threadblocks\": ["
                + tb(0, "[0]", op("respkt", local("i", 0) + ", " + local("s", 0), local("i", 0) + ", " + remote(0), g0)) + ", "
                + tb(1, "[0]", op("respkt", local("i", 0) + ", " + local("s", 0), local("i", 0) + ", " + remote(0), g1)) + "]},"
                + "{\"id\": 1, \"input_chunks\": 1, \"output_chunks\": 1, \"scratch_chunks\": 1,"
                + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [0]}],"
                + " \"remote_buffers\": [{\"rank\": 0, \"type\": \"s\", \"access_channel_types\": [\"memory\"]}], \"threadblocks\": ["
                + tb(0, "[0]", op("ppkt", local("i", 0), remote(0), g0), op("upkt", local("s", 0), local("i", 0), g0)) + ", "
                + tb(1, "[0]", op("ppkt", local("i", 0), remote(0), g1), op("upkt", local("s", 0), local("i", 0), g1)) + "]}]}";
        Plan p = read(json);
        assertEquals(List.of(OpKind.REDUCE, OpKind.PUT), p.rank(0).tb(0).steps().stream().map(Step::op).toList());
        assertEquals(List.of(OpKind.NOP, OpKind.NOP), p.rank(0).tb(1).steps().stream().map(Step::op).toList());
        assertEquals(List.of(), check(json));
    }

    @Test
    void groupMemberBeyondTheGroupIsAnError() {
        String json = plan("LL", 1, tb(0, "[0]", op("ppkt", local("i", 0), remote(0), ", \"tbg_info\": {\"tb_id\": 2, \"tbg_size\": 2}")), "");
        var o = dev.nunac.testkit.Outcome.of(() -> read(json));
        assertTrue(o.first().endsWith("error: $.gpus[0].threadblocks[0].ops[0].tbg_info: tb_id 2 in a group of 2; tb_id must be below tbg_size"), o.first());
    }

    @Test
    void signalsPairPerChannelNotPerThreadblock() {
        // gpu 0 signals on its second channel (connection 1) from a threadblock whose first channel is
        // connection 0; gpu 1 waits on connection 1 from a threadblock whose first channel is connection 1.
        // Pairing by the threadblock's first channel would leave both unmatched.
        String json = plan("Simple", 2,
                tb(0, "[0, 1]", op("put", local("i", 0), remote(0), ""), sync("signal", 1)) + ", "
                        + tb(1, "[0]", sync("wait", 0), op("copy", local("s", 1), local("o", 1), "")),
                tb(0, "[1, 0]", sync("wait", 0), op("copy", local("s", 0), local("o", 0), "")) + ", "
                        + tb(1, "[0]", op("put", local("i", 0), remote(1), ""), sync("signal", 0)));
        Plan p = read(json);
        assertEquals(1, p.rank(0).tb(0).steps().get(1).channel());
        assertEquals(0, p.rank(0).tb(0).channel());
        assertEquals(1, p.rank(1).tb(0).steps().get(0).channel());
        assertEquals(List.of(), check(json));
    }

    @Test
    void inPlaceAllToAllAliasesOutputAndInput() {
        // Each gpu puts input[peer] into the peer's scratch, signals, waits, and copies the peer's
        // chunk from its own scratch over input[peer]: output == input, as MSCCL++ defines in-place.
        String gpus = "";
        for (int g = 0; g < 2; g++) {
            int peer = 1 - g;
            gpus += (g == 0 ? "" : ",") + "{\"id\": " + g + ", \"input_chunks\": 2, \"output_chunks\": 2, \"scratch_chunks\": 1,"
                    + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [" + peer + "]}],"
                    + " \"remote_buffers\": [{\"rank\": " + peer + ", \"type\": \"s\", \"access_channel_types\": [\"memory\"]}],"
                    + " \"threadblocks\": [" + tb(0, "[0]", op("put", local("i", peer), remote(0), ""), sync("signal", 0),
                    sync("wait", 0), op("copy", local("s", 0), local("i", peer), "")) + "]}";
        }
        String json = "{\"name\": \"p\", \"collective\": \"alltoall\", \"protocol\": \"Simple\", \"inplace\": true, \"gpus\": ["
                + gpus + "]}";
        assertEquals(List.of(), check(json));
        assertTrue(check(json.replace("\"inplace\": true", "\"inplace\": false")).get(0)
                .startsWith("postcondition of alltoall fails at rank 0, output[0]: expected input chunk 0 of rank 0, found nothing"));
    }
}
