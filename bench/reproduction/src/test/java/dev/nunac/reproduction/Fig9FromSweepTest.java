package dev.nunac.reproduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.sweep.Shard;
import dev.nunac.sweep.SpecReader;
import dev.nunac.sweep.SweepRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fig. 9 read from a sweep's point files is the Fig. 9 the reproduction simulates itself. */
class Fig9FromSweepTest {
    static final Path REPO = Path.of("").toAbsolutePath().resolve("../..").normalize(); // the module's folder is bench/reproduction

    @TempDir
    Path tmp;

    Path spec(String timing) throws Exception {
        StringBuilder plans = new StringBuilder();
        for (String ex : PaperReproduction.FIG9_COLLECTIVES) {
            plans.append(plans.length() == 0 ? "" : ", ").append("{\"plan\": \"").append(REPO.resolve("examples/" + ex + ".msccl"))
                    .append("\", \"defines\": {\"tbs_per_peer\": 1}}");
        }
        return Files.writeString(tmp.resolve("spec.json"), "{\"plans\": [" + plans + "], \"gpus\": [2], \"topologies\": [\"nuna-4die\"],"
                + " \"sizes\": [\"100KB\"], \"policies\": [\"ua\", \"ua+nar\", \"numa+nar\", \"nap+nar\"], \"layout\": \"packed\","
                + " \"timing\": \"" + timing + "\"}");
    }

    @Test
    void theSweepsFig9IsTheReproductionsOwn() throws Exception {
        Path dir = tmp.resolve("sweep");
        SweepRun.run(SpecReader.read(spec("simulation")), dir, Shard.ALL, (done, total, p) -> { });
        PaperReproduction p = new PaperReproduction(REPO.resolve("examples"), REPO.resolve("bench/" + PaperReproduction.WHAT_IF));
        int[] gpus = {2};
        long[] sizes = {100_000L};
        String fromSweep = p.fig9(dir, gpus, sizes);
        assertEquals(p.fig9(gpus, sizes), fromSweep);
        assertTrue(fromSweep.contains("| allgather-direct | 2 | 100 kB |"), fromSweep);
    }

    @Test
    void aSweepTimedByTheSearchAloneIsRefusedWhereARowIsAnalytic() throws Exception {
        // nothing at 2 GPUs and 100 kB is too large to simulate, so such a sweep reads the same; a point missing is refused
        Path dir = tmp.resolve("sweep");
        SweepRun.run(SpecReader.read(spec("search")), dir, Shard.ALL, (done, total, p) -> { });
        PaperReproduction p = new PaperReproduction(REPO.resolve("examples"), REPO.resolve("bench/" + PaperReproduction.WHAT_IF));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.fig9(dir, new int[] {4}, new long[] {100_000L}));
        assertTrue(e.getMessage().contains("no point for allgather-direct at 4 GPUs"), e.getMessage());
    }
}
