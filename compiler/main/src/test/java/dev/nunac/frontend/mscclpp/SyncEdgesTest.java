package dev.nunac.frontend.mscclpp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Dep;
import dev.nunac.ir.Limits;
import dev.nunac.ir.Plan;
import dev.nunac.ir.RankPlan;
import dev.nunac.testkit.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Barriers and semaphores of one GPU become dependency edges between its threadblocks. */
class SyncEdgesTest {
    /** One gpu (and an idle second one); one threadblock per ops list; semaphores with these initial values. */
    static String plan(List<Integer> semaphores, String... tbOps) {
        List<String> sems = new ArrayList<>();
        for (int v : semaphores) sems.add("{\"init_value\": " + v + "}");
        List<String> tbs = new ArrayList<>();
        for (int t = 0; t < tbOps.length; t++) tbs.add("{\"id\": " + t + ", \"ops\": [" + tbOps[t] + "]}");
        return "{\"name\": \"p\", \"collective\": \"allreduce\", \"protocol\": \"Simple\", \"inplace\": true, \"gpus\": [\n"
                + "{\"id\": 0, \"input_chunks\": 2, \"output_chunks\": 2, \"scratch_chunks\": 2, \"semaphores\": ["
                + String.join(", ", sems) + "],\n \"threadblocks\": [\n" + String.join(",\n", tbs) + "]},\n"
                + "{\"id\": 1, \"input_chunks\": 2, \"output_chunks\": 2, \"scratch_chunks\": 2, \"threadblocks\": []}]}\n";
    }

    static RankPlan gpu0(String json) {
        Plan p = MscclppJsonImporter.read("p.json", json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
        return p.rank(0);
    }

    static String release(int id) {
        return "{\"name\": \"sem_release\", \"semaphore_ids\": [" + id + "]}";
    }

    static String acquire(int id) {
        return "{\"name\": \"sem_acquire\", \"semaphore_ids\": [" + id + "]}";
    }

    static String barrier(int id, int n) {
        return "{\"name\": \"barrier\", \"barrier_id\": " + id + ", \"num_threadblocks\": " + n + "}";
    }

    static final String COPY = "{\"name\": \"copy\", \"src_buff\": [{\"type\": \"i\", \"index\": 0, \"size\": 1}],"
            + " \"dst_buff\": [{\"type\": \"s\", \"index\": 0, \"size\": 1}]}";

    @Test
    void anAcquireDependsOnTheReleaseItTakes() {
        RankPlan g = gpu0(plan(List.of(0), COPY + "," + release(0), acquire(0) + "," + COPY));
        assertEquals(List.of(new Dep(0, 1)), g.tb(1).steps().get(0).deps());
        assertEquals(List.of(), g.tb(0).steps().get(1).deps());
    }

    @Test
    void theKthAcquireTakesTheKthReleaseAfterTheInitialValue() {
        // init 1: the first acquire needs no release, the second takes the first release.
        RankPlan g = gpu0(plan(List.of(1), release(0) + "," + release(0), acquire(0) + "," + acquire(0) + "," + acquire(0)));
        assertEquals(List.of(), g.tb(1).steps().get(0).deps());
        assertEquals(List.of(new Dep(0, 0)), g.tb(1).steps().get(1).deps());
        assertEquals(List.of(new Dep(0, 1)), g.tb(1).steps().get(2).deps());
    }

    @Test
    void oneOperationMayAcquireSeveralSemaphores() {
        RankPlan g = gpu0(plan(List.of(0, 0), release(0), release(1),
                "{\"name\": \"sem_acquire\", \"semaphore_ids\": [0, 1]}"));
        assertEquals(List.of(new Dep(0, 0), new Dep(1, 0)), g.tb(2).steps().get(0).deps());
    }

    @Test
    void everyParticipantLeavesABarrierAfterAllHaveArrived() {
        RankPlan g = gpu0(plan(List.of(), COPY + "," + barrier(0, 3), barrier(0, 3), barrier(0, 3) + "," + COPY));
        // tb0: copy, arrive, leave; tb1: arrive, leave; tb2: arrive, leave, copy
        assertEquals(List.of(new Dep(1, 0), new Dep(2, 0)), g.tb(0).steps().get(2).deps());
        assertEquals(List.of(new Dep(0, 1), new Dep(2, 0)), g.tb(1).steps().get(1).deps());
        assertEquals(List.of(new Dep(0, 1), new Dep(1, 0)), g.tb(2).steps().get(1).deps());
        assertTrue(g.tb(2).steps().get(0).deps().isEmpty());
    }

    @Test
    void theSecondUseOfABarrierMeetsTheSecondUses() {
        RankPlan g = gpu0(plan(List.of(), barrier(0, 2) + "," + barrier(0, 2), barrier(0, 2) + "," + barrier(0, 2)));
        assertEquals(List.of(new Dep(1, 2)), g.tb(0).steps().get(3).deps());
        assertEquals(List.of(new Dep(0, 2)), g.tb(1).steps().get(3).deps());
    }

    @Test
    void theOlderGeneratorsCountFieldIsRead() {
        RankPlan g = gpu0(plan(List.of(), "{\"name\": \"barrier\", \"barrier_id\": 0, \"nthread_blocks\": 2}",
                "{\"name\": \"barrier\", \"barrier_id\": 0, \"nthread_blocks\": 2}"));
        assertEquals(List.of(new Dep(1, 0)), g.tb(0).steps().get(1).deps());
    }

    private static void fails(String json, String message) {
        Outcome o = Outcome.of(() -> gpu0(json));
        assertEquals(ErrorKind.PLAN, o.kind());
        assertEquals(message, o.first());
    }

    @Test
    void anAcquireNoReleaseSatisfiesIsRefused() {
        fails(plan(List.of(0), release(0), acquire(0) + "," + acquire(0)),
                "p.json:5:65: error: gpu 0 threadblock 1: this sem_acquire of semaphore 0 can never succeed: the semaphore"
                        + " starts at 0 and is released 1 time(s) but acquired 2 time(s)");
    }

    @Test
    void anAcquireBeforeItsOwnReleaseIsRefused() {
        fails(plan(List.of(0), acquire(0) + "," + release(0)),
                "p.json:4:19: error: gpu 0 threadblock 0: this sem_acquire of semaphore 0 waits for a sem_release later in"
                        + " the same threadblock, which can never run first");
    }

    @Test
    void anUnknownSemaphoreIsRefused() {
        fails(plan(List.of(0), acquire(3)), "p.json:4:61: error: semaphore id 3 names no semaphore of gpu 0 (it has 1)");
    }

    @Test
    void aBarrierTooFewThreadblocksReachIsRefused() {
        fails(plan(List.of(), barrier(0, 3), barrier(0, 3)),
                "p.json:4:19: error: gpu 0: barrier 0 waits for 3 threadblocks but 2 reach it (threadblocks 0, 1);"
                        + " the executor would wait forever");
    }
}
