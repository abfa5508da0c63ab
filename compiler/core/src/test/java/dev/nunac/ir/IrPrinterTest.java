package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testkit.PlanBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IrPrinterTest {
    @Test
    void thePiecesAreTheHeaderThenOneRankEachAndMakeTheWholeText() {
        Plan p = PlanBuilder.directAllgather(3);
        List<String> pieces = new ArrayList<>();
        IrPrinter.print(p, piece -> pieces.add(piece.toString()));
        assertEquals(4, pieces.size());
        assertTrue(pieces.get(0).startsWith("plan \"allgather_direct\"\n"), pieces.get(0));
        for (int r = 0; r < 3; r++) assertTrue(pieces.get(r + 1).startsWith("rank " + r + "\n"), pieces.get(r + 1));
        assertEquals(IrPrinter.print(p), String.join("", pieces));
    }
}
