package dev.nunac.frontend.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Every ```msccl block of docs/dsl.md is a program that passes `nunac check`. */
class DocsExamplesTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> docExamplesCheck() throws IOException {
        List<String> lines = Files.readAllLines(TestPaths.repoRoot().resolve("docs/dsl.md"));
        List<String> blocks = new ArrayList<>();
        StringBuilder cur = null;
        for (String l : lines) {
            if (cur == null && l.equals("```msccl")) cur = new StringBuilder();
            else if (cur != null && l.equals("```")) {
                blocks.add(cur.toString());
                cur = null;
            } else if (cur != null) cur.append(l).append('\n');
        }
        assertTrue(blocks.size() >= 8, "docs/dsl.md has " + blocks.size() + " examples");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            String text = blocks.get(i);
            int n = i;
            tests.add(DynamicTest.dynamicTest("example " + (i + 1), () -> {
                Path f = tmp.resolve("doc" + n + ".msccl");
                Files.writeString(f, text);
                CliRun r = CliRun.of("check", f.toString());
                assertEquals(0, r.exit(), text + "\n" + r.err());
            }));
        }
        return tests.stream();
    }
}
