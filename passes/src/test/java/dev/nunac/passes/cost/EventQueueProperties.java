package dev.nunac.passes.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The event queue hands events out by time, then by insertion, however adds and polls interleave. */
class EventQueueProperties {
    /** An event as a reference queue holds it. */
    private record Ev(double t, long seq, int tb) {}

    /**
     * Each op is an add (its time a small integer, so ties are common, plus the last polled time:
     * a simulation never schedules into the past) or, when negative, a poll.
     */
    @Property(tries = 300)
    void pollsInTimeThenInsertionOrder(@ForAll @Size(max = 400) List<@IntRange(min = -3, max = 12) Integer> ops) {
        run(ops, false);
    }

    /**
     * As above, with the simulator's other way of taking an event: peek at it, then either pop it
     * or replace it by a new event (op -1: pop; op -2: replace, the new event due a few quarters later).
     */
    @Property(tries = 300)
    void replacingTheTopIsPoppingItThenAdding(@ForAll @Size(max = 400) List<@IntRange(min = -2, max = 12) Integer> ops) {
        run(ops, true);
    }

    /**
     * Both ways again on queues of other bucket widths and a ring of 64 buckets: events in one
     * bucket (width 2), spread over the ring (a quarter), and mostly past it, in the overflow heap
     * (a hundredth: the ring spans 0.64 while adds reach 3 ahead).
     */
    @Property(tries = 300)
    void theBucketsDoNotChangeTheOrder(@ForAll @Size(max = 400) List<@IntRange(min = -3, max = 12) Integer> ops,
                                       @ForAll @IntRange(min = 0, max = 2) int widthChoice, @ForAll boolean replacing) {
        double width = new double[] {2.0, 0.25, 0.01}[widthChoice];
        run(ops, replacing, new EventQueue(width, 64));
    }

    private static void run(List<Integer> ops, boolean replacing) {
        run(ops, replacing, new EventQueue());
    }

    /** Runs the ops on the queue and on a reference queue, which must hand out the same events in the same order. */
    private static void run(List<Integer> ops, boolean replacing, EventQueue q) {
        if (replacing) ops = ops.stream().map(op -> op == -3 ? -1 : op).toList();
        PriorityQueue<Ev> ref = new PriorityQueue<>(Comparator.comparingDouble(Ev::t).thenComparingLong(Ev::seq));
        long seq = 0;
        double now = 0;
        for (int i = 0; i < ops.size(); i++) {
            int op = ops.get(i);
            if (op < 0) {
                if (ref.isEmpty()) continue;
                Ev want = ref.poll();
                if (replacing) q.peek();
                else q.poll();
                assertEquals(want.t(), q.t);
                assertEquals(want.tb(), q.tbOf);
                assertEquals(Long.valueOf(want.seq()), q.w);
                now = want.t();
                if (!replacing) continue;
                if (op == -1) {
                    q.pop();
                } else {
                    double t = now + (i * 7 % 13) / 4.0;
                    q.replaceTop(t, (int) seq, 0, seq);
                    ref.add(new Ev(t, seq, (int) seq));
                    seq++;
                }
            } else {
                double t = now + op / 4.0;
                q.add(t, (int) seq, 0, seq);
                ref.add(new Ev(t, seq, (int) seq));
                seq++;
            }
            assertEquals(ref.isEmpty(), q.isEmpty());
        }
        List<Long> rest = new ArrayList<>();
        while (!q.isEmpty()) {
            q.poll();
            rest.add((Long) q.w);
        }
        List<Long> want = new ArrayList<>();
        while (!ref.isEmpty()) want.add(ref.poll().seq());
        assertEquals(want, rest);
    }

    /** Times too large for a bucket number (a topology's absurd latency) share the last bucket, still in order. */
    @Test
    void hugeAndInfiniteTimesComeOutInOrder() {
        EventQueue q = new EventQueue();
        q.add(Double.POSITIVE_INFINITY, 0, 0, "infinite");
        q.add(1e300, 0, 0, "huge");
        q.add(3.0, 0, 0, "soon");
        q.add(1e300, 0, 0, "huge again");
        List<Object> order = new ArrayList<>();
        while (!q.isEmpty()) {
            q.poll();
            order.add(q.w);
            if (order.size() == 1) q.add(2e300, 0, 0, "later");
        }
        assertEquals(List.of("soon", "huge", "huge again", "later", "infinite"), order);
    }

    @Test
    void negativeZeroIsZeroAndNegativeOrNaNTimesAreRefused() {
        EventQueue q = new EventQueue();
        q.add(0.0, 1, 0, "first");
        q.add(-0.0, 2, 0, "second");
        q.poll();
        assertEquals("first", q.w);
        q.poll();
        assertEquals("second", q.w);
        assertTrue(q.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> q.add(-1, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> q.add(Double.NaN, 0, 0, null));
    }
}
