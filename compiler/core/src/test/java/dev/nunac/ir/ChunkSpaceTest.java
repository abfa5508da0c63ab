package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.diag.SourcePos;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ChunkSpaceTest {
    /** Storages of very different sizes (one chunk beside thousands, empty inputs): the bucketed lookup agrees with a scan. */
    @Test
    void storageIndexOfAgreesWithAScanOverTheStorages() {
        for (int[] sizes : new int[][] {{1, 1, 1}, {4096, 1, 7}, {0, 3, 1}, {1, 5000, 2}, {64, 64, 64}}) {
            List<RankPlan> rps = new ArrayList<>();
            for (int r = 0; r < 5; r++) {
                List<Buffer> bs = new ArrayList<>();
                bs.add(new Buffer(Buffer.INPUT, BufferKind.INPUT, sizes[(r) % 3]));
                bs.add(new Buffer(Buffer.OUTPUT, BufferKind.OUTPUT, sizes[(r + 1) % 3]));
                bs.add(new Buffer("scratch", BufferKind.SCRATCH, sizes[(r + 2) % 3]));
                rps.add(new RankPlan(r, bs, List.of()));
            }
            Plan plan = new Plan("t", Collective.ALLTOALL, 5, 1, false, Protocol.SIMPLE, 1, rps, PlanFormat.DSL, new TreeMap<>(),
                    SourcePos.NONE);
            ChunkSpace space = new ChunkSpace(plan);
            List<ChunkSpace.Storage> st = space.storages();
            for (int id = -2; id < space.size() + 3; id++) {
                int want = 0;
                for (int j = 0; j < st.size(); j++) if (st.get(j).firstId() <= id) want = j;
                assertEquals(want, space.storageIndexOf(id), "id " + id + " of sizes " + java.util.Arrays.toString(sizes));
            }
        }
    }
}
