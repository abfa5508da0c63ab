package dev.nunac.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TopoCommandTest {
    static final Path REPO = Path.of(System.getProperty("nunac.repo", "../.."));

    record Result(int rc, String out, String err) {}

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = new Cli(new Io(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))).run(args);
        return new Result(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void showNuna4die() {
        Result r = run("topo", "show", "nuna-4die");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("576 CUs"), r.out());
        assertTrue(r.out().contains("ports: 144 "), r.out());
        assertTrue(r.out().contains("NAR granularity 12: 12 domains"), r.out());
        assertEquals(r.out(), run("topo", "show", "nuna-4die").out());
    }

    @Test
    void listAndExpanded() {
        Result l = run("topo", "list");
        assertEquals(0, l.rc());
        assertTrue(l.out().startsWith("b200\t"), l.out());
        Result e = run("topo", "show", "mi300x", "--expanded");
        assertEquals(0, e.rc());
        assertTrue(e.out().contains("cu 38 router r0_0 die xcd1 bit 1\n"), e.out());
    }

    @Test
    void validateShippedSpec() {
        Result r = run("topo", "validate", REPO.resolve("topology-specs/mi300x.json").toString());
        assertEquals(0, r.rc(), r.err());
    }

    @Test
    void portOnUnknownRouterExits3WithPathAndLine() {
        String f = REPO.resolve("topology-specs/src/test/resources/bad/port-unknown-router.json").toString();
        Result r = run("topo", "validate", f);
        assertEquals(3, r.rc());
        assertTrue(r.err().contains(f + ":35:"), r.err());
        assertTrue(r.err().contains("$.io.groups[1].routers[1]: unknown router 'r9_0'"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    @Test
    void usageErrors() {
        assertEquals(2, run("topo").rc());
        assertEquals(2, run("topo", "frob").rc());
        assertEquals(3, run("topo", "show", "no-such-gpu").rc());
    }
}
