package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The runtime's opcode table (runtime-shim/src/ops.def, an X-macro the C runtime includes) and the
 * device kernel's opcodes (runtime-shim/src/kernels/executor.cu) say what {@link OpKind} says:
 * the same operations in the same order (the ordinal is the opcode), mnemonics and effects.
 */
class OpTableTest {
    static Path repo() {
        // the module's folder is compiler/core
        Path here = Path.of("").toAbsolutePath();
        return here.resolve("../..").normalize();
    }

    record Row(String name, String mnemonic, Set<OpKind.Effect> effects) {}

    static List<Row> opsDef() throws IOException {
        Pattern row = Pattern.compile("^NR_OP\\(\\s*(\\w+),\\s*\"([^\"]*)\",\\s*([01]),\\s*([01]),\\s*([01]),\\s*([01]),\\s*([01])\\)\\s*$");
        List<Row> rows = new ArrayList<>();
        OpKind.Effect[] order = {OpKind.Effect.SENDS, OpKind.Effect.RECEIVES, OpKind.Effect.READS_SRC, OpKind.Effect.WRITES_DST,
                OpKind.Effect.REDUCES};
        for (String line : Files.readAllLines(repo().resolve("runtime-shim/src/ops.def"))) {
            if (!line.startsWith("NR_OP(")) continue;
            Matcher m = row.matcher(line);
            assertTrue(m.matches(), "ops.def: a row the test cannot read: " + line);
            Set<OpKind.Effect> fx = EnumSet.noneOf(OpKind.Effect.class);
            for (int i = 0; i < order.length; i++) if (m.group(3 + i).equals("1")) fx.add(order[i]);
            rows.add(new Row(m.group(1), m.group(2), fx));
        }
        return rows;
    }

    @Test
    void theRuntimesTableIsOpKindRowForRow() throws IOException {
        List<Row> rows = opsDef();
        assertEquals(OpKind.values().length, rows.size(), "one row per OpKind");
        for (OpKind k : OpKind.values()) {
            Row r = rows.get(k.ordinal());
            assertEquals(k.mnemonic(), r.mnemonic(), "opcode " + k.ordinal() + " (" + r.name() + ")");
            assertEquals(k.effects(), r.effects(), k + ": effects in ops.def");
        }
    }

    @Test
    void theEffectFieldsAreTheEffects() {
        for (OpKind k : OpKind.values()) {
            assertEquals(k.effects().contains(OpKind.Effect.SENDS), k.sends, k.name());
            assertEquals(k.effects().contains(OpKind.Effect.RECEIVES), k.receives, k.name());
            assertEquals(k.effects().contains(OpKind.Effect.READS_SRC), k.readsSrc, k.name());
            assertEquals(k.effects().contains(OpKind.Effect.WRITES_DST), k.writesDst, k.name());
            assertEquals(k.effects().contains(OpKind.Effect.REDUCES), k.reduces, k.name());
        }
    }

    /** The kernel is compiled at run time from one source string, so it defines the data-moving opcodes itself. */
    @Test
    void theKernelsOpcodesAreTheTablesOrdinals() throws IOException {
        List<Row> rows = opsDef();
        Map<String, Integer> defined = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^#define OP_(\\w+) (\\d+)\\s*$")
                .matcher(Files.readString(repo().resolve("runtime-shim/src/kernels/executor.cu")));
        while (m.find()) defined.put(m.group(1), Integer.parseInt(m.group(2)));
        assertTrue(defined.size() >= 8, "the kernel's opcodes: " + defined);
        for (var e : defined.entrySet()) {
            int at = -1;
            for (int i = 0; i < rows.size(); i++) if (rows.get(i).name().equals(e.getKey())) at = i;
            assertEquals(at, e.getValue(), "executor.cu's OP_" + e.getKey());
        }
    }
}
