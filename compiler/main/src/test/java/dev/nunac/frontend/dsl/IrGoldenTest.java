package dev.nunac.frontend.dsl;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Golden;
import dev.nunac.testing.TestPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** `nunac ir` of every example at 2 and 8 ranks against golden files (golden/ir/). */
class IrGoldenTest {
    static final List<String> EXAMPLES = List.of("allgather-direct", "allreduce-allpairs", "allreduce-chained", "alltoall-direct",
            "allreduce-ring", "allreduce-hierarchical");

    @TestFactory
    Stream<DynamicTest> irOfEveryExample() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String ex : EXAMPLES) {
            for (int ranks : new int[] {2, 8}) {
                tests.add(DynamicTest.dynamicTest(ex + " at " + ranks + " ranks", () -> {
                    CliRun r = CliRun.of("ir", TestPaths.examples().resolve(ex + ".msccl").toString(), "-D", "ranks=" + ranks);
                    assertEquals(0, r.exit(), r.err());
                    Golden.assertMatches("ir/" + ex + "-r" + ranks + ".ir", r.out());
                }));
            }
        }
        return tests.stream();
    }
}
