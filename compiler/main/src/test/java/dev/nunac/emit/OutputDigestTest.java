package dev.nunac.emit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Text written to a file through {@link TextOut} a buffer at a time: its bytes are those of the
 * whole text's UTF-8 encoding, whatever falls on a buffer's end, and the manifest's digest is theirs.
 */
class OutputDigestTest {
    /** The bytes {@code writer} streams. */
    static byte[] streamed(Consumer<TextOut> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextOut out = new TextOut((b, n) -> bytes.write(b, 0, n));
        writer.accept(out);
        out.finish();
        assertEquals(bytes.size(), out.written());
        return bytes.toByteArray();
    }

    static void same(String text) {
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), streamed(out -> out.append(text)));
        // a character at a time, and as a char array
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), streamed(out -> {
            for (int i = 0; i < text.length(); i++) out.append(text.charAt(i));
        }));
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), streamed(out -> out.append(text.toCharArray(), 0, text.length())));
    }

    @Test
    void buffersGiveTheBytesOfTheWholeText() {
        int buffer = TextOut.BUFFER;
        same("");
        same("placement\n");
        String a = "a".repeat(buffer - 1);
        same(a + "\uD83D\uDE00" + "b".repeat(buffer)); // a surrogate pair across the first buffer's end
        same(a + "x\u20ac" + "b".repeat(10)); // three bytes across it
        same("é".repeat(3 * buffer + 7)); // two bytes a character, several buffers
        same("\u00ff\u0100\u07ff\u0800\uffff\uD800\uDC00\uDBFF\uDFFF"); // the edges of each length
    }

    @Test
    void numbersAreWrittenAsStringBuilderWritesThem() {
        long[] values = {0, 9, 10, -1, -10, 99, 100, 12345, Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
                -9_999_999_999L, 1_000_000_000_000L};
        StringBuilder expected = new StringBuilder();
        for (long v : values) {
            expected.append(v).append(' ');
            if (v == (int) v) expected.append((int) v).append(' ');
        }
        byte[] got = streamed(out -> {
            for (long v : values) {
                out.append(v).append(' ');
                if (v == (int) v) out.append((int) v).append(' ');
            }
        });
        assertEquals(expected.toString(), new String(got, StandardCharsets.US_ASCII));
        // past the end of a buffer
        String pad = "p".repeat(TextOut.BUFFER - 3);
        assertEquals(pad + Long.MIN_VALUE + Integer.MIN_VALUE, new String(streamed(out -> out.append(pad).append(Long.MIN_VALUE)
                .append(Integer.MIN_VALUE)), StandardCharsets.US_ASCII));
    }

    @Test
    void aLoneSurrogateHasNoEncoding() {
        for (String bad : new String[] {"x\uD83D", "x\uD83Dy", "\uDE00", "a\uD83D\uD83D\uDE00"}) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> streamed(out -> out.append(bad)), bad);
            assertInstanceOf(CharacterCodingException.class, e.getCause());
        }
        assertThrows(UncheckedIOException.class, () -> streamed(out -> out.append('\uD83D').append(7)));
    }

    @Test
    void inMemoryItIsTheStringBuilder() {
        StringBuilder sb = new StringBuilder();
        new TextOut(sb).append("a\uD800").append(-5).append(6L).append('c').append(new char[] {'x', 'y'}, 1, 1).append(true);
        assertEquals("a\uD800-56cytrue", sb.toString());
    }
}
