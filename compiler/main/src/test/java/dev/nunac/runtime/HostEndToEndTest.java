package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.LaunchTable;
import dev.nunac.ir.BufferLayout;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.Repo;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example at 2, 4 and 8 ranks, compiled for MI300X, emitted as a launch table and run on
 * the host backend: every rank's output equals the reference computed here in Java.
 */
class HostEndToEndTest {
    @BeforeAll
    static void runtime() {
        assumeTrue(NunaRuntime.isAvailable(), () -> "native runtime unavailable: " + NunaRuntime.unavailabilityCause());
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : Repo.files(Repo.root().resolve("examples"), ".msccl")) {
            for (int ranks : new int[] {2, 4, 8}) out.add(Arguments.of(p.getFileName().toString(), ranks));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} at {1} ranks")
    @MethodSource("cases")
    void outputsEqualTheJavaReference(String example, int ranks) {
        Plan plan = PlanLoader.load(Repo.root().resolve("examples").resolve(example), Map.of("ranks", String.valueOf(ranks)),
                dev.nunac.ir.Limits.DEFAULT);
        // A small size keeps 15 runs fast; the data path is the same at any size.
        CompileResult r = Driver.compile(plan, TopologyResolver.resolve("mi300x"),
                new PlacementOptions(Policy.NAP_NAR, PlacementOptions.NAR_DEFAULT, 64L << 10), true, null, null);
        int chunkElems = (int) (r.placement().chunkBytes() / 4);
        try (Session s = NunaRuntime.open("host", null)) {
            s.load(LaunchTable.emit(r)).allocate().launch().verify();
            LaunchReport rep = s.parsedReport();
            assertEquals("host", rep.get("backend"));
            assertTrue(rep.get("data-check").startsWith("passed"), rep.text());
            int root = Integer.parseInt(plan.attributes().getOrDefault("root", "0"));
            for (int k = 0; k < ranks; k++) {
                int chunks = BufferLayout.capacity(plan, k, "output");
                float[] want = Reference.output(plan.collective().id(), ranks, plan.effectiveChunkFactor(), root, k, chunks, chunkElems);
                float[] got = s.output(k);
                assertEquals(want.length, got.length, "output length of rank " + k);
                for (int i = 0; i < want.length; i++) {
                    if (Float.isNaN(want[i])) continue;
                    if (want[i] != got[i]) {
                        throw new AssertionError(example + " rank " + k + " output element " + i + ": expected " + want[i] + ", got " + got[i]);
                    }
                }
            }
        }
    }
}
