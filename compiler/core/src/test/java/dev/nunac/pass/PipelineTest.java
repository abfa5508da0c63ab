package dev.nunac.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.SourcePos;
import dev.nunac.ir.Collective;
import dev.nunac.ir.Plan;
import dev.nunac.ir.PlanFormat;
import dev.nunac.ir.Protocol;
import dev.nunac.ir.RankPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PipelineTest {
    record Fake(String name, Set<Stage> requires, Stage provides, boolean fail) implements Pass {
        @Override
        public void run(Compilation c) {
            if (fail) c.diagnostics().error(SourcePos.NONE, name + " failed");
        }
    }

    static Plan plan() {
        return new Plan("p", Collective.CUSTOM, 1, 1, false, Protocol.SIMPLE, 1, List.of(new RankPlan(0, List.of(), List.of())),
                PlanFormat.DSL, new TreeMap<>(), SourcePos.NONE);
    }

    @Test
    void orderIsCheckedBeforeAnythingRuns() {
        Pass placement = new Fake("place", Set.of(Stage.LOGICALLY_ALLOCATED), Stage.PLACED, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pipeline.of(placement));
        assertEquals("pass 'place' requires stage LOGICALLY_ALLOCATED, which no earlier pass provides", e.getMessage());
    }

    @Test
    void stopsAfterTheFirstPassWithErrorsAndDumpsOnRequest() {
        List<String> dumps = new ArrayList<>();
        Pipeline p = Pipeline.of(new Fake("check", Set.of(Stage.PARSED), Stage.CHECKED, false),
                new Fake("access", Set.of(Stage.CHECKED), Stage.ACCESS_ANALYSED, true),
                new Fake("alloc", Set.of(Stage.ACCESS_ANALYSED), Stage.LOGICALLY_ALLOCATED, false));
        Compilation c = new Compilation(plan(), new Diagnostics());
        assertFalse(p.run(c, true, "check", (n, text) -> dumps.add(n)));
        assertEquals(List.of("check"), dumps);
        assertTrue(c.reached(Stage.CHECKED));
        assertFalse(c.reached(Stage.ACCESS_ANALYSED));
        assertFalse(c.reached(Stage.LOGICALLY_ALLOCATED));
    }

    /** A pass that reads one product, as the real passes declare theirs. */
    static final class Reader extends BasePass {
        static final Key<String> INPUT = Key.of("input", String.class);

        Reader() {
            super("reader", Stage.CHECKED, List.of(INPUT), Stage.PARSED);
        }

        @Override
        public void run(Compilation c) {
            c.get(INPUT);
        }
    }

    @Test
    void aProductAPassReadsIsCheckedBeforeItRuns() {
        Pipeline p = Pipeline.of(new Reader());
        Compilation missing = new Compilation(plan(), new Diagnostics());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.run(missing, false, null, null));
        assertEquals("pass 'reader' reads the product 'input', which neither the caller nor an earlier pass put into the compilation",
                e.getMessage());
        assertFalse(missing.reached(Stage.CHECKED));
        assertTrue(missing.timings().isEmpty(), "the pass did not run");
        Compilation given = new Compilation(plan(), new Diagnostics());
        given.put(Reader.INPUT, "here");
        assertTrue(p.run(given, false, null, null));
        assertEquals(Set.of(Reader.INPUT), new Reader().reads());
    }
}
