package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.PlanLoader;
import dev.nunac.ir.Limits;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --emit msccl-xml} on the compile command, and the export command's atomic -o. */
class EmitMscclXmlTest {
    static String example(String name) {
        return TestPaths.examples().resolve(name + ".msccl").toString();
    }

    @Test
    void compileWritesPlanXmlOnRequest(@TempDir Path tmp) throws Exception {
        CliRun r = CliRun.of(example("allreduce-ring"), "--topo", "mi300x", "-D", "ranks=4", "-o", tmp.toString(),
                "--only", "json,msccl-xml");
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.isRegularFile(tmp.resolve("placement.json")));
        assertFalse(Files.exists(tmp.resolve("placement.h")));
        Path xml = tmp.resolve("plan.xml");
        assertTrue(Files.readString(xml, StandardCharsets.UTF_8).startsWith("<algo name="));
        // The XML reads back as the same plan.
        var back = PlanLoader.load(xml, Map.of(), Limits.DEFAULT);
        var orig = PlanLoader.load(Path.of(example("allreduce-ring")), Map.of("ranks", "4"), Limits.DEFAULT);
        assertEquals(orig.rankPlans().size(), back.rankPlans().size());
        assertEquals(orig.threadblockCount(), back.threadblockCount());
    }

    @Test
    void defaultEmitsLeaveOutPlanXml(@TempDir Path tmp) {
        CliRun r = CliRun.of(example("allgather-direct"), "--topo", "mi300x", "-D", "ranks=4", "-o", tmp.toString());
        assertEquals(0, r.exit(), r.err());
        assertFalse(Files.exists(tmp.resolve("plan.xml")));
    }

    @Test
    void oneSidedPlanCannotBeExportedAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path plan = tmp.resolve("p.json");
        Files.writeString(plan, dev.nunac.testing.Plans.ONE_SIDED_ALLGATHER, StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        CliRun r = CliRun.of(plan.toString(), "--topo", "mi300x", "-o", out.toString(), "--emit", "json,msccl-xml");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("error: rank 0 threadblock 0 step 0: MSCCL-IR XML has no one-sided 'put' step,"
                + " so this plan cannot be exported to it"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out), "no output folder or file on failure");
    }

    @Test
    void exportWritesThroughATemporaryFile(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("plan.xml");
        Files.writeString(out, "previous", StandardCharsets.UTF_8);
        CliRun r = CliRun.of("export", example("allgather-direct"), "-D", "ranks=2", "-o", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.readString(out, StandardCharsets.UTF_8).startsWith("<algo"));
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }
}
