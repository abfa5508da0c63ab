package dev.nunac.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testing.CliRun;
import dev.nunac.testing.Plans;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of JSON input goes through the one reader: a truncated document, a duplicate key, one
 * nested too deep or too large, a value of the wrong type and (where the kind refuses them) an
 * unknown field are each one message at the right {@code file:line:col}, with the kind's exit code,
 * through the command a user runs.
 */
class JsonInputsTest {
    @TempDir
    static Path tmp;

    /** A JSON input: a valid document, the command that reads it, its limits and exit codes, and a value to break. */
    record Kind(String name, Supplier<String> valid, Function<String, List<String>> command, int depth, int bytes, int malformedExit,
                int contentExit, String from, String to, String at, String wrongType, boolean refusesUnknown) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Kind> kinds() {
        return Stream.of(
                new Kind("spec", JsonInputsTest::tiny, f -> List.of("topo", "validate", f), 32, 4 << 20, 3, 3,
                        "\"name\": \"tiny\"", "\"name\": 7", "3:11", "$.name: must be a string, found integer 7", true),
                new Kind("override", () -> "{\"title\": \"t\",\n \"nar\": {\"granularities\": [1]}}",
                        f -> List.of("topo", "validate", "nuna-4die", "--topo-override", f), 32, 4 << 20, 3, 3,
                        "\"title\": \"t\"", "\"title\": 7", "1:11", "$.title: must be a string, found integer 7", true),
                new Kind("plan", () -> Plans.ONE_SIDED_ALLGATHER, f -> List.of("check", f), 256, -1, 3, 1,
                        "\"name\": \"p\"", "\"name\": 7", "1:10", "$.name: must be a string, found integer 7", false),
                new Kind("workload", () -> "{\"name\": \"w\",\n \"phases\": [{\"name\": \"decode\", \"compute_us\": 1, \"collectives\": []}]}",
                        f -> List.of("e2e", f, "--topo", "nuna-4die", "--quiet"), 32, 1 << 20, 1, 1,
                        "\"compute_us\": 1", "\"compute_us\": true", "2:46", "$.phases[0].compute_us: must be a number, found true", true),
                new Kind("sweep", JsonInputsTest::sweep, f -> List.of("sweep", f, "-o", tmp.resolve("out").toString()), 32, 4 << 20, 1, 1,
                        "\"sizes\": [\"1MB\"]", "\"sizes\": [\"1MB\"], \"description\": 7", "1:",
                        "$.description: must be a string, found integer 7", true));
    }

    static String tiny() {
        try {
            return Files.readString(TestPaths.repoRoot().resolve("topology-specs/src/test/resources/tiny.json"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String sweep() {
        String ex = TestPaths.examples().resolve("allgather-direct.msccl").toString().replace("\\", "\\\\");
        return "{\"plans\": [{\"plan\": \"" + ex + "\", \"defines\": {\"ranks\": 2}}], \"topologies\": [\"nuna-4die\"], \"sizes\": [\"1MB\"]}";
    }

    static CliRun run(Kind k, String name, String text, String... extra) throws Exception {
        Path f = Files.writeString(tmp.resolve(k.name() + "-" + name + ".json"), text);
        List<String> args = new ArrayList<>(k.command().apply(f.toString()));
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** One message, at {@code file:at}, exit {@code exit}, no stack trace. */
    static void one(CliRun r, Kind k, String name, int exit, String at, String message) {
        String file = tmp.resolve(k.name() + "-" + name + ".json").toString();
        assertEquals(exit, r.exit(), k + " " + name + ": " + r.err());
        assertEquals(1, r.err().strip().lines().count(), k + " " + name + ": " + r.err());
        assertTrue(r.err().startsWith(file + (at.isEmpty() ? "" : ":" + at)), k + " " + name + ": " + r.err());
        assertTrue(r.err().contains(message), k + " " + name + ": " + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void theValidDocumentIsRead(Kind k) throws Exception {
        CliRun r = run(k, "valid", k.valid().get());
        assertEquals(0, r.exit(), k + ": " + r.err());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aTruncatedDocumentIsMalformedWhereItEnds(Kind k) throws Exception {
        String text = k.valid().get().strip();
        String cut = text.substring(0, text.lastIndexOf('}'));
        String[] lines = cut.split("\n", -1);
        one(run(k, "truncated", cut), k, "truncated", k.malformedExit(), lines.length + ":" + (lines[lines.length - 1].length() + 1),
                "malformed JSON: Unexpected end-of-input");
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aDuplicateKeyIsRefusedAfterTheSecond(Kind k) throws Exception {
        String text = "{\"zzdup\": 1, \"zzdup\": 2, " + k.valid().get().strip().substring(1);
        one(run(k, "dup", text), k, "dup", k.malformedExit(), "1:21", "malformed JSON: Duplicate field 'zzdup'");
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aDocumentNestedTooDeepIsRefusedAtTheLevelPastTheLimit(Kind k) throws Exception {
        String text = "{\"zzdeep\": " + "[".repeat(k.depth() + 5) + "]".repeat(k.depth() + 5) + ", " + k.valid().get().strip().substring(1);
        one(run(k, "deep", text), k, "deep", k.malformedExit(), "1:" + (12 + k.depth()), "JSON nested deeper than " + k.depth() + " levels");
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aDocumentTooLargeIsRefusedBeforeItIsParsed(Kind k) throws Exception {
        String text = k.valid().get();
        if (k.bytes() < 0) {
            // plans: the input-bytes limit, which the user sets
            one(run(k, "large", text, "--limit", "input-bytes=100"), k, "large", 3, "", "; the limit is 100");
        } else {
            one(run(k, "large", text + " ".repeat(k.bytes())), k, "large", k.malformedExit() == 1 ? 1 : 3, "", "; the limit is " + k.bytes());
        }
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aValueOfTheWrongTypeIsNamedByItsPath(Kind k) throws Exception {
        String text = k.valid().get();
        assertTrue(text.contains(k.from()), k.from());
        one(run(k, "type", text.replace(k.from(), k.to())), k, "type", k.contentExit(), k.at(), k.wrongType());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void anUnknownFieldIsRefusedAtItsKeyWhereTheKindRefusesThem(Kind k) throws Exception {
        String text = "{\"zzunknown\": 1, " + k.valid().get().strip().substring(1);
        CliRun r = run(k, "unknown", text);
        if (k.refusesUnknown()) one(r, k, "unknown", k.contentExit(), "1:2", "$: unknown field 'zzunknown'");
        else assertEquals(0, r.exit(), k + " keeps members it does not read: " + r.err());
    }
}
