package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.LaunchTable;
import dev.nunac.ir.Plan;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.Repo;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example at 8 ranks, compiled for MI300X (HIP: 304 CUs on 8 XCDs) and B200 (CUDA: two
 * dies), run through the GPU backends on the fake drivers (runtime-shim's MockDrivers): the
 * step records, the pinned grid (blocks per SM or per XCD) and the readback of real plans,
 * without a GPU. Every threadblock must find a block on its planned unit. Each also runs with its
 * ranks spread over 2 and 4 fake devices (contiguous blocks, per-device arenas reached through
 * the segment table, host-mapped flags, the kernels executed jointly).
 */
class MockGpuEndToEndTest {
    private static final Pattern DEVICE = Pattern.compile("(?m)^device .*\\bcus=(\\d+) dies=(\\d+)\\b");

    @TempDir
    Path work;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : Repo.files(Repo.root().resolve("examples"), ".msccl")) {
            for (int devices : new int[] {1, 2, 4}) {
                out.add(Arguments.of(p.getFileName().toString(), "hip", "mi300x", devices));
                out.add(Arguments.of(p.getFileName().toString(), "cuda", "b200", devices));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} via {1} on {2} x {3}")
    @MethodSource("cases")
    void verifiesWithEveryThreadblockOnItsPlannedUnit(String example, String backend, String topo, int devices) throws Exception {
        MockDrivers mocks = MockDrivers.find();
        Plan plan = PlanLoader.load(Repo.root().resolve("examples").resolve(example), Map.of("ranks", "8"), dev.nunac.ir.Limits.DEFAULT);
        CompileResult r = Driver.compile(plan, TopologyResolver.resolve(topo),
                new PlacementOptions(Policy.NAP_NAR, PlacementOptions.NAR_DEFAULT, 64L << 10), true, null, null);
        String table = LaunchTable.emit(r);
        Matcher m = DEVICE.matcher(table);
        assertTrue(m.find(), "no device line in the launch table");
        int cus = Integer.parseInt(m.group(1)), dies = Integer.parseInt(m.group(2));
        boolean hip = backend.equals("hip");
        // HIP blocks go round-robin over the XCDs; CUDA's over the SMs, on a part whose compute
        // capability gives the table's die count.
        Map<String, String> env = mocks.env(backend, hip ? dies : cus);
        if (!hip) env.put("NUNART_MOCK_CC", dies == 2 ? "10" : "9");
        env.put("NUNART_MOCK_DEVICES", String.valueOf(devices));
        MockDrivers.Run run = mocks.run(work, table, backend, hip ? "cus=" + cus + " dies=" + dies : null, env, 0);
        LaunchReport rep = run.report();
        assertEquals(0, run.exit(), run.stderr() + "\n" + rep.text());
        assertEquals("verified", run.state());
        assertTrue(rep.get("data-check").startsWith("passed"), rep.text());
        // By default every visible device runs a contiguous block of ranks; one is loopback.
        assertTrue(rep.get("devices").startsWith(devices == 1 ? "1 (loopback: all 8 ranks on device 0" : devices + " (devices 0-" + (devices - 1)),
                rep.text());
        if (devices > 1) {
            assertTrue(run.trace().contains("joint run of " + devices + " launches on " + devices + " devices"), String.join("\n", run.trace()));
        }
        int ntb = Integer.parseInt(rep.get("plan").replaceAll(".*, (\\d+) threadblocks,.*", "$1"));
        assertTrue(rep.get("placement-fidelity").startsWith("1.000 (" + ntb + "/" + ntb + " threadblocks ran on their planned " + (hip ? "die" : "CU")),
                rep.text());
    }
}
