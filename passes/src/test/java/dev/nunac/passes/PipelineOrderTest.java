package dev.nunac.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nunac.pass.Pipeline;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The passes' declared stages chain in the driver's order and in no other. */
class PipelineOrderTest {
    @Test
    void thePassesChainInTheDriversOrder() {
        assertEquals(List.of("check", "access-analysis", "logical-allocation", "placement-search", "realisation"),
                Pipeline.of(Fixtures.ALL).names());
    }

    @Test
    void aPassBeforeWhatItRequiresIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of(Fixtures.ALL.get(1), Fixtures.ALL.get(0)));
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of(Fixtures.ALL.get(0), Fixtures.ALL.get(3)));
    }
}
