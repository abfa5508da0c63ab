package dev.nunac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Maven project in examples/maven-consumer builds against nunac as a dependency and runs.
 *
 * <p>The test lays out what {@code ./mvnw install} puts in a local repository (each module's jar
 * and pom, and the parent pom) in a temporary repository, from the modules' compiled classes:
 * at this point of the build nunac's own jar does not exist yet. The consumer is then built
 * offline with that repository as its local repository and the user's repository, which holds
 * every third-party artifact and plugin once nunac has been built, as a read-only tail; nothing
 * is written to the user's repository.
 */
class MavenConsumerTest {
    @TempDir
    Path tmp;

    static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void consumerBuildsOfflineAndPlacesAPlan() throws Exception {
        Path root = TestPaths.repoRoot();
        Path userRepo = Path.of(System.getProperty("nunac.localRepo",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        assumeTrue(Files.isDirectory(userRepo), "no local Maven repository at " + userRepo);
        Path mvnw = root.resolve("mvnw");
        assumeTrue(Files.isExecutable(mvnw), "no executable Maven Wrapper");

        Path repo = tmp.resolve("repository");
        String version = install(root, repo);
        Path consumer = tmp.resolve("consumer");
        copyTree(root.resolve("examples/maven-consumer"), consumer);

        List<String> build = List.of(mvnw.toString(), "-B", "-o", "-q", "-f", consumer.resolve("pom.xml").toString(), "package",
                "-DskipTests", "-Dnunac.version=" + version, "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + userRepo);
        Result b = exec(build, root, 600);
        assertEquals(0, b.exit(), "consumer build failed:\n" + b.out());
        Path jar = consumer.resolve("target/place-at-build.jar");
        assertTrue(Files.isRegularFile(jar), b.out());
        assertTrue(Files.isRegularFile(consumer.resolve("target/lib/nunac-" + version + ".jar")), "nunac not among the consumer's libraries");

        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = jar + java.io.File.pathSeparator + consumer.resolve("target/lib") + java.io.File.separator + "*";
        Path out = tmp.resolve("out");
        Result run = exec(List.of(javaBin, "-cp", cp, "example.PlaceAtBuild", TestPaths.examples().resolve("allgather-direct.msccl").toString(),
                "mi300x", out.toString()), consumer, 300);
        assertEquals(0, run.exit(), run.out());
        assertTrue(run.out().startsWith("allgather_direct on mi300x: "), run.out());
        String header = Files.readString(out.resolve("placement.h"));
        assertTrue(header.contains("app_tb_cu") && header.contains("#define APP_RANKS 4"), header);
        assertTrue(Files.readString(out.resolve("placement.json")).startsWith("{"));

        // A plan that is not there: the API's diagnostic, the input exit code, no stack trace.
        Result missing = exec(List.of(javaBin, "-cp", cp, "example.PlaceAtBuild", "no/such/plan.msccl", "mi300x", tmp.resolve("o2").toString()),
                consumer, 300);
        assertEquals(3, missing.exit(), missing.out());
        assertEquals("no/such/plan.msccl: error: no such file\n", missing.out());
        assertFalse(Files.exists(tmp.resolve("o2")));
    }

    /**
     * Writes the parent pom and the pom and jar of every default module up to nunac itself into
     * {@code repo} in the local-repository layout; returns the version.
     */
    static String install(Path root, Path repo) throws IOException {
        String parentPom = Files.readString(root.resolve("pom.xml"));
        String groupId = tag(parentPom, "groupId");
        String parentId = tag(parentPom, "artifactId");
        String version = tag(parentPom, "version");
        Path groupDir = repo.resolve(groupId.replace('.', '/'));
        put(groupDir, parentId, version, "pom", out -> Files.copy(root.resolve("pom.xml"), out));
        String modules = parentPom.substring(parentPom.indexOf("<modules>"), parentPom.indexOf("</modules>"));
        Matcher m = MODULE.matcher(modules);
        int n = 0;
        while (m.find()) {
            Path dir = root.resolve(m.group(1));
            String pom = Files.readString(dir.resolve("pom.xml"));
            String artifactId = tag(pom.substring(pom.indexOf("</parent>")), "artifactId");
            Path classes = dir.resolve("target/classes");
            assertTrue(Files.isDirectory(classes), dir + " is not compiled");
            put(groupDir, artifactId, version, "pom", out -> Files.copy(dir.resolve("pom.xml"), out));
            put(groupDir, artifactId, version, "jar", out -> jar(classes, out));
            n++;
            // a consumer needs the reactor up to nunac itself; the modules after it (the reproduction
            // beside the benchmarks) build on it and are not compiled yet when this test runs
            if (artifactId.equals("nunac")) break;
        }
        assertTrue(n >= 6, "modules found: " + n);
        return version;
    }

    interface Writer {
        void write(OutputStream out) throws IOException;
    }

    static void put(Path groupDir, String artifactId, String version, String ext, Writer w) throws IOException {
        Path dir = Files.createDirectories(groupDir.resolve(artifactId).resolve(version));
        try (OutputStream out = Files.newOutputStream(dir.resolve(artifactId + "-" + version + "." + ext))) {
            w.write(out);
        }
    }

    static void jar(Path classes, OutputStream out) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream jar = new JarOutputStream(out, mf); Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.sorted().toList()) {
                if (f.equals(classes)) continue;
                String name = classes.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                if (Files.isDirectory(f)) {
                    jar.putNextEntry(new JarEntry(name + "/"));
                } else {
                    jar.putNextEntry(new JarEntry(name));
                    Files.copy(f, jar);
                }
                jar.closeEntry();
            }
        }
    }

    /** The first element {@code name} of a pom, outside {@code <parent>}. */
    static String tag(String pom, String name) {
        String s = pom.contains("</parent>") ? pom.substring(pom.indexOf("</parent>")) : pom;
        Matcher m = Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(s);
        assertTrue(m.find(), "no <" + name + "> in pom");
        return m.group(1).trim();
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path rel = from.relativize(f);
                if (rel.startsWith("target")) continue;
                Path t = to.resolve(rel.toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t);
            }
        }
    }

    record Result(int exit, String out) {}

    static Result exec(List<String> cmd, Path dir, int seconds) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(cmd)).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), "timed out: " + String.join(" ", cmd));
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
