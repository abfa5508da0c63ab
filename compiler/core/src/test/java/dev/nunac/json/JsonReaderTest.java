package dev.nunac.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.Diagnostics;
import dev.nunac.diag.ErrorKind;
import dev.nunac.ir.Limits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one JSON reader: limits, positions and the wording every JSON input shares. */
class JsonReaderTest {
    static String fails(String text, JsonLimits limits, ErrorKind kind) {
        CompileException e = assertThrows(CompileException.class,
                () -> JsonReader.parse("d.json", text.getBytes(StandardCharsets.UTF_8), limits, kind));
        assertEquals(kind, e.kind());
        assertEquals(1, e.diagnostics().size(), e.diagnostics().toString());
        return e.diagnostics().get(0).format();
    }

    static String fails(String text) {
        return fails(text, JsonLimits.DOCUMENT, ErrorKind.INPUT);
    }

    @Test
    void valuesKeepTheirPositions() {
        JNode root = JsonReader.parse("d.json", "{\"a\": [1, 2.5],\n \"b\": {\"c\": \"x\"}}".getBytes(StandardCharsets.UTF_8),
                JsonLimits.DOCUMENT);
        JNode.JObject o = (JNode.JObject) root;
        assertEquals("d.json:1:1", o.pos().toString());
        assertEquals("d.json:1:7", o.fields().get("a").pos().toString());
        assertEquals("d.json:2:2", o.keyPos().get("b").toString());
        JNode.JArray a = (JNode.JArray) o.fields().get("a");
        assertTrue(((JNode.JNumber) a.items().get(0)).integral());
        assertEquals("2.5", ((JNode.JNumber) a.items().get(1)).value().toPlainString());
        assertEquals("d.json:2:13", ((JNode.JObject) o.fields().get("b")).fields().get("c").pos().toString());
    }

    @Test
    void malformedDocumentsAreOneErrorAtTheirPosition() {
        assertTrue(fails("{\"a\": [1,\n").startsWith("d.json:2:1: error: malformed JSON: Unexpected end-of-input"), fails("{\"a\": [1,\n"));
        assertEquals("d.json:1:13: error: malformed JSON: Duplicate field 'a'", fails("{\"a\": 1, \"a\": 2}"));
        assertEquals("d.json:1:1: error: empty document: expected a JSON object", fails(""));
        assertEquals("d.json:1:4: error: unexpected content after the end of the JSON document", fails("{} {}"));
        assertEquals("d.json:1:10: error: malformed JSON: 'NaN' is not a JSON number", fails("{\"a\": NaN}"));
        assertEquals("d.json:1:1: error: unexpected character U+FEFF (a byte-order mark, allowed only at the start of the file)",
                fails("\uFEFF\uFEFF{}"));
        assertTrue(fails("{\"a\": 1e999}").startsWith("d.json:1:7: error: number 1e999 is out of range"));
    }

    @Test
    void aByteOrderMarkFirstIsAccepted() {
        JNode root = JsonReader.parse("d.json", "\uFEFF{\"a\": 1}".getBytes(StandardCharsets.UTF_8), JsonLimits.DOCUMENT);
        assertEquals("d.json:1:1", root.pos().toString());
    }

    @Test
    void theKindOfAMalformedDocumentIsTheCallers() {
        assertTrue(fails("{", JsonLimits.DOCUMENT, ErrorKind.PLAN).startsWith("d.json:1:2: error: malformed JSON"));
    }

    @Test
    void limitsAreSaidInNunacsTermsWithHowToRaiseThemWhereTheUserCan() {
        String deep = "[".repeat(40) + "]".repeat(40);
        assertEquals("d.json:1:34: error: JSON nested deeper than 32 levels", fails(deep));
        JsonLimits plan = JsonLimits.plan(Limits.DEFAULT.with("nesting", 3).with("elements", 4).with("attributes", 2));
        assertEquals("d.json:1:5: error: JSON nested deeper than 3 levels (raise the limit with --limit nesting=N)",
                fails("[[[[]]]]", plan, ErrorKind.INPUT));
        assertEquals("d.json:1:11: error: more than 4 JSON values (raise the limit with --limit elements=N)",
                fails("[1, 2, 3, 4]", plan, ErrorKind.INPUT));
        assertEquals("d.json:1:1: error: object has more than 2 members (raise the limit with --limit attributes=N)",
                fails("{\"a\": 1, \"b\": 2, \"c\": 3}", plan, ErrorKind.INPUT));
        assertEquals("d.json: error: small is 12 bytes; the limit is 8", fails("{\"a\": [1,2]}", JsonLimits.DOCUMENT.of("small", 8),
                ErrorKind.INPUT));
        assertTrue(fails("{\"" + "k".repeat(300) + "\": 1}").contains("a JSON member name longer than 256 characters"));
        assertTrue(fails("{\"a\": \"" + "s".repeat(70_000) + "\"}").contains("a JSON string longer than 65536 characters"));
    }

    @Test
    void filesAreReadWithinTheirLimits(@TempDir Path dir) throws Exception {
        Path big = Files.writeString(dir.resolve("big.json"), "[" + "1,".repeat(10) + "1]");
        CompileException e = assertThrows(CompileException.class, () -> JsonReader.read(big, JsonLimits.DOCUMENT.of("workload file", 8),
                ErrorKind.PLAN));
        assertEquals(ErrorKind.PLAN, e.kind());
        assertEquals(big + ": error: workload file is 23 bytes; the limit is 8", e.diagnostics().get(0).format());
        e = assertThrows(CompileException.class, () -> JsonReader.read(dir.resolve("none.json"), JsonLimits.DOCUMENT, ErrorKind.PLAN));
        assertEquals(ErrorKind.INPUT, e.kind());
        assertEquals(dir.resolve("none.json") + ": error: no such file", e.diagnostics().get(0).format());
        e = assertThrows(CompileException.class, () -> JsonReader.read(dir, JsonLimits.DOCUMENT, ErrorKind.PLAN));
        assertEquals(dir + ": error: is a directory, not a JSON document", e.diagnostics().get(0).format());
    }

    @Test
    void fieldsSpeakOneWording() {
        JNode root = JsonReader.parse("d.json", ("{\"s\": 7, \"n\": -1, \"b\": \"x\", \"c\": \"z\", \"o\": [], \"e\": \" \", \"extra\": 1}")
                .getBytes(StandardCharsets.UTF_8), JsonLimits.DOCUMENT);
        Diagnostics d = new Diagnostics();
        JsonFields f = JsonFields.root(root, JsonFields.collect(d));
        assertNull(f.string("s", true));
        assertNull(f.integer("n", true, 0, 10));
        assertNull(f.bool("b", true));
        assertNull(f.choice("c", true, List.of("x", "y")));
        assertNull(f.obj("o", true));
        assertNull(f.str("e", true));
        assertNull(f.number("missing", true, 0, false));
        f.allowOnly(List.of("s", "n", "b", "c", "o", "e"));
        assertEquals(List.of(
                "d.json:1:7: error: $.s: must be a string, found integer 7",
                "d.json:1:15: error: $.n: must be an integer from 0 to 10, found -1",
                "d.json:1:24: error: $.b: must be true or false, found string \"x\"",
                "d.json:1:34: error: $.c: must be one of x, y, found 'z'",
                "d.json:1:44: error: $.o: must be an object, found array",
                "d.json:1:53: error: $.e: must not be empty",
                "d.json:1:1: error: $: missing required field 'missing'",
                "d.json:1:58: error: $: unknown field 'extra' (allowed: b, c, e, n, o, s)"),
                d.all().stream().map(x -> x.format()).toList());
        CompileException e = assertThrows(CompileException.class, () -> JsonFields.root(root, JsonFields.stop(ErrorKind.PLAN)).integer("s", true, 0, 1));
        assertEquals(ErrorKind.PLAN, e.kind());
    }
}
