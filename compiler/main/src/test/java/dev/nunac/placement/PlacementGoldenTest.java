package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Golden;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** placement.json of every example × {nuna-4die, mi300x} × {ua, nap+nar, auto} at 8 ranks against golden files. */
class PlacementGoldenTest {
    static final List<String> EXAMPLES = List.of("allgather-direct", "allreduce-allpairs", "alltoall-direct",
            "allreduce-ring", "allreduce-hierarchical");

    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> placements() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String ex : EXAMPLES) {
            for (String topo : List.of("nuna-4die", "mi300x")) {
                for (String policy : List.of("ua", "nap+nar", "auto")) {
                    String name = ex + "." + topo + "." + policy.replace("+", "-");
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        Path out = tmp.resolve(name);
                        CliRun r = CliRun.of(TestPaths.examples().resolve(ex + ".msccl").toString(), "--topo", topo,
                                "-D", "ranks=8", "--policy", policy, "-o", out.toString(), "--emit", "json,report");
                        assertEquals(0, r.exit(), r.err());
                        Golden.assertMatches("placement/" + name + ".json", Files.readString(out.resolve("placement.json")));
                        Golden.assertMatches("placement/" + name + ".report.txt", Files.readString(out.resolve("report.txt")));
                    }));
                }
            }
        }
        return tests.stream();
    }
}
