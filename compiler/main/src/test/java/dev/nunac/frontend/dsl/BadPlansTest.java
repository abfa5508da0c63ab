package dev.nunac.frontend.dsl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Golden;
import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Malformed plans and their exact diagnostics: golden/bad/NAME.msccl is checked, and the exit
 * code plus stderr must equal golden/bad/NAME.errors. A first-line comment "// args: ..." adds
 * command-line arguments.
 */
class BadPlansTest {
    @TestFactory
    Stream<DynamicTest> everyBadPlanHasItsExactDiagnostics() throws IOException {
        Path dir = TestPaths.moduleDir().resolve("src/test/resources/golden/bad");
        List<Path> plans;
        try (Stream<Path> s = Files.list(dir)) {
            plans = s.filter(p -> p.toString().endsWith(".msccl")).sorted().toList();
        }
        assertTrue(plans.size() >= 15, "at least 15 malformed plans, found " + plans.size());
        return plans.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            String rel = "src/test/resources/golden/bad/" + p.getFileName();
            String first = Files.readAllLines(p).get(0);
            List<String> args = new java.util.ArrayList<>(List.of("check", rel));
            if (first.startsWith("// args:")) args.addAll(List.of(first.substring(8).trim().split("\\s+")));
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertFalse(r.exit() == 0 || r.exit() == 70, "exit " + r.exit() + "\n" + r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace");
            String name = p.getFileName().toString().replace(".msccl", ".errors");
            Golden.assertMatches("bad/" + name, "exit " + r.exit() + "\n" + r.err());
        }));
    }
}
