package dev.nunac.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ShardTest {
    static List<String> ids(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add("plan-" + (i % 3) + ".g" + (1 << (i % 5)) + ".nuna-4die." + (i * 7) + "KB");
        return out;
    }

    @Test
    void partsAreDisjointAndCoverEveryPoint() {
        for (int points : new int[] {0, 1, 2, 7, 30, 31}) {
            List<String> ids = ids(points);
            for (int n = 1; n <= 9; n++) {
                Set<String> seen = new TreeSet<>();
                int most = 0, least = Integer.MAX_VALUE;
                for (int i = 0; i < n; i++) {
                    Set<String> part = new Shard(i, n).of(ids);
                    for (String id : part) assertTrue(seen.add(id), id + " in two parts of " + n);
                    most = Math.max(most, part.size());
                    least = Math.min(least, part.size());
                }
                assertEquals(new TreeSet<>(ids), seen, points + " points in " + n + " parts");
                assertTrue(most - least <= 1, "parts differ by at most one point: " + least + " to " + most);
            }
        }
    }

    @Test
    void partsDependOnTheIdsNotOnTheirOrder() {
        List<String> ids = ids(23);
        List<String> shuffled = new ArrayList<>(ids);
        Collections.shuffle(shuffled, new Random(7));
        for (int i = 0; i < 4; i++) assertEquals(new Shard(i, 4).of(ids), new Shard(i, 4).of(shuffled));
    }

    @Test
    void parsesZeroBasedIndexOverCount() {
        String[] why = new String[1];
        Shard s = Shard.parse("2/3", why);
        assertNotNull(s);
        assertEquals(new Shard(2, 3), s);
        assertEquals("2/3", s.toString());
        assertEquals(new Shard(0, 1), Shard.parse(" 0/1 ", why));
        for (String bad : new String[] {"3/3", "1/0", "0/0", "-1/3", "1", "1/2/3", "a/b", "", "/3", "1/", "99999999/100000000", "1.0/2"}) {
            assertNull(Shard.parse(bad, why), bad);
            assertTrue(why[0] != null && !why[0].isEmpty(), bad);
        }
        Shard.parse("3/3", why);
        assertTrue(why[0].contains("counted from 0"), why[0]);
    }
}
