package dev.nunac.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Malformed tables and devices that do not fit are refused at load with one clear message. */
class MalformedTableTest {
    static Stream<Arguments> malformed() {
        String ok = Tables.allgather2();
        return Stream.of(
                Arguments.of("empty", "", "ends early"),
                Arguments.of("not a table", "hello world\n", "not a launch table"),
                Arguments.of("step count", ok.replaceFirst("steps=3", "steps=4"), "declared 4 steps"),
                Arguments.of("truncated", ok.substring(0, ok.length() / 2), "launch table"),
                Arguments.of("text after end", ok + "rank id=2\n", "text after 'end'"),
                Arguments.of("grid disagrees", ok.replace("grid=1 ", "grid=2 ").replaceFirst("slots=0\n", "slots=-1,0\n"), "slot"),
                Arguments.of("buffers past 1 TiB", ok.replace("chunk_bytes=16", "chunk_bytes=1073741824").replace("name=input chunks=1 ", "name=input chunks=1024 "),
                        "line 7: storage 1 of rank 0: chunks=2 of chunk_bytes=1073741824 take the buffers past 1 TiB"),
                Arguments.of("dependency on a later step", ok.replaceFirst("deps=- from=- to=-", "deps=0:1 from=- to=-"),
                        "step 0 of threadblock 0 depends on step 1 of its own threadblock, which runs after it"),
                Arguments.of("cycle through partners", partnerCycle(),
                        "line 14: rank 0 threadblock 0 step 1 (r) is on a cycle of 4 steps that wait for each other"));
    }

    /** Each rank receives before it sends, and each receive takes the other rank's later send. */
    static String partnerCycle() {
        String t = Tables.allgather2();
        for (int r = 0; r < 2; r++) {
            int p = 1 - r;
            String step = "step rank=" + r + " tb=0 id=";
            t = t.replace(step + "1 op=s src=" + r + ":0:0:1 dst=- peer=-1 deps=- from=- to=" + p + ":0:2",
                            step + "1 op=r src=- dst=" + r + ":1:" + p + ":1 peer=-1 deps=- from=" + p + ":0:2 to=-")
                    .replace(step + "2 op=r src=- dst=" + r + ":1:" + p + ":1 peer=-1 deps=0:0 from=" + p + ":0:1 to=-",
                            step + "2 op=s src=" + r + ":0:0:1 dst=- peer=-1 deps=0:0 from=- to=" + p + ":0:1");
        }
        return t;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void refused(String name, String table, String expected) {
        try (Session s = NunaRuntime.open("host", null)) {
            RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> s.load(table));
            assertEquals(RuntimeFailure.Status.TABLE, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains(expected), () -> "message: " + e.getMessage());
            assertEquals("failed", s.state());
        }
    }

    /** The good table with every occurrence of one text replaced by another (quoted where spaces at its ends matter). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            future version         | nunart-launch 1     | nunart-launch 2               | unsupported launch table version 2
            missing key            | " cu=1 "            | " "                           | 'tb' needs cu=N
            not a number           | ranks=2             | ranks=two                     | ranks=two is not an integer
            CU outside the device  | " cu=1 "            | " cu=99 "                     | threadblock on CU 99
            operand out of bounds  | dst=0:1:0:1         | dst=0:1:5:1                   | out of bounds
            receive without send   | from=1:0:1          | from=-                        | would wait forever
            partner not named back | from=1:0:1          | from=1:0:0                    | does not name it back
            odd chunk size         | chunk_bytes=16      | chunk_bytes=10                | not a multiple of 4
            unknown op             | op=cpy              | op=teleport                   | unknown op 'teleport'
            empty mask             | "mask=0x1 "         | "mask=0x0 "                   | mask is empty
            mask too wide          | "mask=0x1 "         | "mask=0x100000000 "           | wider than mask_words
            dep on a missing step  | deps=0:0            | deps=0:9                      | does not exist
            root outside the ranks | root=0              | root=2                        | root=2 is not a rank (ranks=2)
            negative partner rank  | from=1:0:1          | from=-1:0:1                   | from=-1:0:1: rank -1 does not exist
            partner rank past 2^21 | from=1:0:1          | from=2147483647:0:1           | rank 2147483647 does not exist
            range end past int     | dst=0:1:0:1         | dst=0:1:1073741824:2147483647 | chunks [1073741824, 3221225471)
            self dependency        | deps=0:0 from=1:0:1 | deps=0:2 from=1:0:1           | line 15: step 2 of threadblock 0 depends on itself (deps=0:2)
            """)
    void refusedAfterOneReplacement(String name, String from, String to, String expected) {
        refused(name, Tables.allgather2().replace(from, to), expected);
    }

    static Stream<Arguments> mismatched() {
        return Stream.of(
                Arguments.of("fewer CUs", "cus=4", "the placement is for tiny with 8 CUs"),
                Arguments.of("other die count", "dies=8", "the placement is for 2 dies"),
                Arguments.of("narrower masks", "cus=8 mask_words=0", null),
                Arguments.of("too many ranks", "max_ranks=1", "the plan has 2 ranks"),
                Arguments.of("memory limit", "mem_limit_mb=0", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mismatched")
    void deviceThatDoesNotFit(String name, String options, String expected) {
        try (Session s = NunaRuntime.open("host", options)) {
            if (expected == null) {
                s.load(Tables.allgather2()); // a zero option means "the default": it fits
                return;
            }
            RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> s.load(Tables.allgather2()));
            assertEquals(RuntimeFailure.Status.MISMATCH, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains(expected), () -> "message: " + e.getMessage());
        }
    }

    @Test
    void streamMaskThatEmptiesADieIsRefusedUnderModuloDispatch() {
        try (Session s = NunaRuntime.open("host", null)) {
            String t = Tables.allgather2("modulo").replace("cus=2 added=0 mask=0x3", "cus=1 added=0 mask=0x1");
            RuntimeFailure e = assertThrows(RuntimeFailure.class, () -> s.load(t));
            assertEquals(RuntimeFailure.Status.MISMATCH, e.status());
            assertTrue(e.getMessage().contains("leaves die 1 without a CU"), e.getMessage());
        }
    }

    /** The native tests (src/test/native) mutate the same table as these tests. */
    @Test
    void nativeSeedIsTheJavaTestsTable() throws IOException {
        Path seed = Path.of("src/test/native/tables/allgather2.txt");
        assertEquals(Tables.allgather2(), Files.readString(seed));
    }

    @Test
    void randomCorruptionNeverCrashes() {
        String ok = Tables.allgather2();
        Random rnd = new Random(7);
        int loaded = 0;
        for (int i = 0; i < 300; i++) {
            char[] c = ok.toCharArray();
            for (int k = 0; k < 1 + rnd.nextInt(4); k++) c[rnd.nextInt(c.length)] = "0123456789-:,= x\n".charAt(rnd.nextInt(17));
            try (Session s = NunaRuntime.open("host", "timeout_ms=2000")) {
                try {
                    s.load(new String(c)).allocate().launch();
                    loaded++;
                } catch (RuntimeFailure e) {
                    assertTrue(!e.getMessage().isEmpty());
                }
            }
        }
        assertTrue(loaded < 300);
    }
}
