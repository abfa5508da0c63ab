package dev.nunac.testing;

/** Small plans that several tests use. */
public final class Plans {
    private Plans() {}

    /** A two-gpu MSCCL++ allgather (an execution plan): each gpu puts its chunk into the peer's output, signals and waits. */
    public static final String ONE_SIDED_ALLGATHER = "{\"name\": \"p\", \"collective\": \"allgather\", \"protocol\": \"Simple\", \"inplace\": true,\n"
            + " \"gpus\": [" + gpu(0) + ",\n" + gpu(1) + "]}\n";

    private static String gpu(int id) {
        int peer = 1 - id;
        return "{\"id\": " + id + ", \"input_chunks\": 1, \"output_chunks\": 2, \"scratch_chunks\": 0,\n"
                + " \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [" + peer + "]}],\n"
                + " \"remote_buffers\": [{\"rank\": " + peer + ", \"type\": \"o\", \"access_channel_types\": [\"memory\"]}],\n"
                + " \"threadblocks\": [{\"id\": 0, \"channels\": [{\"channel_type\": \"memory\", \"channel_ids\": [0]}],\n"
                + " \"remote_buffer_refs\": [{\"access_channel_type\": \"memory\", \"remote_buffer_ids\": [0]}], \"ops\": [\n"
                + "{\"name\": \"put\", \"src_buff\": [{\"type\": \"i\", \"index\": 0, \"size\": 1}],"
                + " \"dst_buff\": [{\"buffer_id\": 0, \"index\": " + id + ", \"size\": 1}], \"channel_type\": \"memory\"},\n"
                + "{\"name\": \"signal\", \"channel_ids\": [0], \"channel_type\": \"memory\"},\n"
                + "{\"name\": \"wait\", \"channel_ids\": [0], \"channel_type\": \"memory\"}]}]}";
    }
}
