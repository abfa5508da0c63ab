package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The manifest's digest of a text, taken a slice at a time, is that of the text's whole UTF-8 encoding. */
class OutputDigestTest {
    static void same(String text) {
        assertEquals(OutputFiles.sha256(text.getBytes(StandardCharsets.UTF_8)), OutputFiles.sha256(text));
    }

    @Test
    void slicesGiveTheBytesOfTheWholeText() {
        int slice = 1 << 20;
        same("");
        same("placement\n");
        String a = "a".repeat(slice - 1);
        same(a + "\uD83D\uDE00" + "b".repeat(slice)); // a surrogate pair across the first slice's end
        same(a + "\uD83D" + "b".repeat(10)); // a lone high surrogate at the end of a slice
        same(a + "x\uDE00" + "b".repeat(10)); // a lone low surrogate just after one
        same("é".repeat(3 * slice + 7)); // two bytes a character, several slices
    }
}
