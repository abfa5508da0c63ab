package dev.nunac.runtime;

/** A small hand-written launch table: 2-rank all-gather, out of place, one threadblock per rank. */
final class Tables {
    private Tables() {}

    static String allgather2(String dispatch) {
        StringBuilder sb = new StringBuilder();
        sb.append("nunart-launch 1\n");
        sb.append("plan name=ag2 collective=allgather ranks=2 chunk_factor=1 inplace=0 root=0 protocol=Simple\n");
        sb.append("device topology=tiny cus=8 dies=2 stacks=2 mask_words=1 dispatch=").append(dispatch).append('\n');
        sb.append("placement policy=nap chunk_bytes=16 page_bytes=4096\n");
        for (int r = 0; r < 2; r++) {
            int p = 1 - r;
            sb.append("rank id=").append(r).append(" storages=2 threadblocks=1 grid=1 streams=1 expects=2\n");
            sb.append("storage rank=").append(r).append(" id=0 name=input chunks=1 pages=1 stacks=").append(r).append('\n');
            sb.append("storage rank=").append(r).append(" id=1 name=output chunks=2 pages=1 stacks=").append(r).append('\n');
            sb.append("view rank=").append(r).append(" buffer=input storage=0 offset=0 chunks=1\n");
            sb.append("view rank=").append(r).append(" buffer=output storage=1 offset=0 chunks=2\n");
            for (int q = 0; q < 2; q++) sb.append("expect rank=").append(r).append(" out=").append(q).append(" count=1 op=copy src=").append(q).append(":0\n");
            sb.append("tb rank=").append(r).append(" id=0 cu=").append(r).append(" die=").append(r % 2)
                    .append(" slot=0 domain=0 group=0 send=").append(p).append(" recv=").append(p)
                    .append(" channel=0 mask=0x").append(1 << r).append(" steps=3\n");
            sb.append("step rank=").append(r).append(" tb=0 id=0 op=cpy src=").append(r).append(":0:0:1 dst=").append(r)
                    .append(":1:").append(r).append(":1 peer=-1 deps=- from=- to=-\n");
            sb.append("step rank=").append(r).append(" tb=0 id=1 op=s src=").append(r).append(":0:0:1 dst=- peer=-1 deps=- from=- to=")
                    .append(p).append(":0:2\n");
            sb.append("step rank=").append(r).append(" tb=0 id=2 op=r src=- dst=").append(r).append(":1:").append(p)
                    .append(":1 peer=-1 deps=0:0 from=").append(p).append(":0:1 to=-\n");
            sb.append("stream rank=").append(r).append(" domain=0 cus=2 added=0 mask=0x3\n");
            sb.append("grid rank=").append(r).append(" slots=0\n");
        }
        sb.append("end\n");
        return sb.toString();
    }

    static String allgather2() {
        return allgather2("none");
    }
}
