package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.topology.TopologyResolver;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.search.PlacementSearch;
import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.testing.Repo;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the compile prints beside its headline: the payoff notice, and the space a very large plan was searched over. */
class ReportNoticeTest {
    static CompileResult compile(Plan plan, PlacementSearch.Settings settings) {
        return Driver.compile(plan, TopologyResolver.resolve("nuna-4die"), PlacementOptions.defaults(), settings, true, null, null);
    }

    static Plan plan() {
        return PlanLoader.load(Repo.root().resolve("examples").resolve("alltoall-direct.msccl"), Map.of("ranks", "4"), Limits.DEFAULT);
    }

    @Test
    void aNarrowedSearchSaysSoOnItsOwnLineAndInTheReport() {
        Plan plan = plan();
        CompileResult r = compile(plan, PlacementSearch.Settings.defaults().withTwoCandidateSteps(plan.stepCount() - 1));
        String note = Report.notice(r);
        String last = note.substring(note.lastIndexOf('\n') + 1);
        assertEquals("note: " + r.search().narrowed(), last);
        assertTrue(last.contains("so the search estimated ua and nap+nar k=4 only"), last);
        assertTrue(Report.emit(r).contains(last + "\n"), Report.emit(r));
    }

    @Test
    void belowTheLimitNothingIsAdded() {
        Plan plan = plan();
        CompileResult r = compile(plan, PlacementSearch.Settings.defaults());
        assertEquals("", r.search().narrowed());
        String note = Report.notice(r);
        if (note != null) assertTrue(!note.contains("only (of the reduced space"), note);
        else assertNull(note);
    }
}
