package dev.nunac.reproduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The claims table: one row per claim, ours where a figure measured it, else said to be missing. */
class PaperClaimsTest {
    @Test
    void everyClaimHasARowAndMissingMeasurementsSaySo() {
        PaperClaims c = new PaperClaims();
        c.put("fig10-ua", "mean 1037 ns, max 1,284 ns");
        String t = c.table();
        assertEquals(PaperClaims.CLAIMS.size() + 2, t.split("\n").length, t);
        assertTrue(t.contains("| fig10-ua | mean 920 ns, max 1,320 ns | §6.2, Fig. 10(a) | mean 1037 ns, max 1,284 ns |"), t);
        assertTrue(t.contains("| nap+nar | up to 1.8x | abstract; §6.1, Fig. 9 | not computed in this document |"), t);
    }
}
