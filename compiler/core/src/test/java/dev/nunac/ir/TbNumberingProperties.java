package dev.nunac.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.testkit.PlanBuilder;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Threadblock identities and global indices convert both ways, in plan order, whatever the ranks' sizes. */
class TbNumberingProperties {
    @Property(tries = 300)
    void convertsBothWaysInPlanOrder(@ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 9) Integer> sizes) {
        TbNumbering n = TbNumbering.ofSizes(sizes.stream().mapToInt(Integer::intValue).toArray());
        assertEquals(sizes.size(), n.ranks());
        assertEquals(sizes.stream().mapToInt(Integer::intValue).sum(), n.count());
        int g = 0;
        TbId previous = null;
        for (int r = 0; r < sizes.size(); r++) {
            assertEquals(g, n.first(r));
            assertEquals(sizes.get(r), n.size(r));
            for (int i = 0; i < sizes.get(r); i++, g++) {
                TbId id = new TbId(r, i);
                assertEquals(g, n.global(id));
                assertEquals(id, n.id(g));
                assertEquals(r, n.rankOf(g));
                if (previous != null) assertTrue(previous.compareTo(id) < 0, previous + " before " + id);
                previous = id;
            }
        }
        assertThrows(IndexOutOfBoundsException.class, () -> n.id(n.count()));
        assertThrows(IndexOutOfBoundsException.class, () -> n.id(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> n.global(sizes.size(), 0));
    }

    @Test
    void aPlansNumberingFollowsItsRanks() {
        // 3 ranks of 2 threadblocks each
        TbNumbering n = TbNumbering.of(PlanBuilder.directAllgather(3));
        assertEquals(6, n.count());
        assertEquals(new TbId(1, 0), n.id(2));
        assertEquals(5, n.global(new TbId(2, 1)));
        assertThrows(IndexOutOfBoundsException.class, () -> n.global(new TbId(0, 2)));
    }

    @Test
    void identitiesAreNeverNegative() {
        assertThrows(IllegalArgumentException.class, () -> new TbId(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> TbNumbering.ofSizes(1, -1));
        assertEquals("r2 tb3", new TbId(2, 3).toString());
    }
}
