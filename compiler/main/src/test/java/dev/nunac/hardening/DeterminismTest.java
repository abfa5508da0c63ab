package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same inputs give byte-identical outputs in this JVM and in fresh JVMs under other locales
 * (language, country, {@code LANG}, {@code LC_ALL}) and time zones.
 */
class DeterminismTest {
    static final List<String> OUTPUTS = List.of("placement.json", "placement.h", "report.txt", "plan.xml", "placed.xml");

    static List<String> args(Path out) {
        return List.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "--topo", "nuna-4die", "-D", "ranks=4",
                "--size", "100KB", "-o", out.toString(), "--emit", "json,header,report,msccl-xml,placed-xml");
    }

    /** Runs {@code nunac} in a new JVM with the given locale, time zone and environment. */
    static void runJvm(Path out, String language, String country, String zone, String lang) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Xss16m", "-Duser.language=" + language, "-Duser.country=" + country,
                "-Duser.timezone=" + zone, "-Dfile.encoding=UTF-8", "-cp", cp, "dev.nunac.cli.Main"));
        cmd.addAll(args(out));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("LANG", lang);
        env.put("LC_ALL", lang);
        env.put("TZ", zone);
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("nunac did not finish in 120 s");
        }
        assertEquals(0, p.exitValue(), log);
    }

    @Test
    void outputsAreByteIdenticalAcrossJvmsLocalesAndTimeZones(@TempDir Path dir) throws Exception {
        Path here = dir.resolve("in-process");
        CliRun r = CliRun.of(args(here).toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        Path turkish = dir.resolve("tr");
        runJvm(turkish, "tr", "TR", "Pacific/Kiritimati", "tr_TR.UTF-8");
        Path german = dir.resolve("de");
        runJvm(german, "de", "DE", "America/St_Johns", "de_DE.UTF-8");
        for (String f : OUTPUTS) {
            byte[] want = Files.readAllBytes(here.resolve(f));
            assertArrayEquals(want, Files.readAllBytes(turkish.resolve(f)), f + " under tr_TR");
            assertArrayEquals(want, Files.readAllBytes(german.resolve(f)), f + " under de_DE");
        }
        // A second run in this JVM, too.
        Path again = dir.resolve("again");
        assertEquals(0, CliRun.of(args(again).toArray(String[]::new)).exit());
        for (String f : OUTPUTS) assertArrayEquals(Files.readAllBytes(here.resolve(f)), Files.readAllBytes(again.resolve(f)), f);
    }
}
