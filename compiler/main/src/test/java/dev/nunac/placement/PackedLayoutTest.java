package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nunac.driver.CompileResult;
import dev.nunac.driver.Driver;
import dev.nunac.frontend.SourceText;
import dev.nunac.frontend.dsl.DslFrontEnd;
import dev.nunac.ir.Limits;
import dev.nunac.ir.ChunkSpace;
import dev.nunac.passes.access.TbAccess;
import dev.nunac.passes.place.PageMap;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Policy;
import dev.nunac.testing.Repo;
import dev.nunac.topology.TopologyResolver;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sub-page chunks packed by NAP (--layout packed): the slot a chunk gets must put it, whole, in a page whose stack
 * and NAR domain are the ones placement chose for it; the cost model reads the layout through the
 * same {@link PageMap#byteOffset}.
 */
class PackedLayoutTest {
    @Test
    void everyPackedChunkLiesInOnePageOfItsThreadblocksDomain() throws Exception {
        String text = Files.readString(Repo.root().resolve("examples/allgather-direct.msccl"));
        var plan = DslFrontEnd.parse(new SourceText("allgather-direct.msccl", text),
                Map.of("ranks", "8", "tbs_per_peer", "144"), Limits.DEFAULT);
        CompileResult r = Driver.compile(plan, TopologyResolver.resolve("nuna-4die"),
                new PlacementOptions(Policy.NAP_NAR, 12, 1_000_000).withRepack(true), false, null, null);
        Placement pl = r.placement();
        long cb = pl.chunkBytes(), pb = pl.pageBytes();
        assertTrue(cb < pb && pb % cb != 0, "the case needs sub-page chunks that do not divide a page: " + cb);
        ChunkSpace space = r.accesses().space();
        for (int si = 0; si < space.storages().size(); si++) {
            PageMap pm = pl.pages().get(si);
            assertNotNull(pm.slot(), "packed layout expected for " + pm.buffer());
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (int i = 0; i < space.storages().get(si).chunks(); i++) {
                long off = pm.byteOffset(i, cb, pb);
                assertEquals(off / pb, (off + cb - 1) / pb, "chunk " + i + " of " + pm.buffer() + " straddles two pages");
                assertTrue(seen.add(off), "two chunks at byte " + off);
                assertTrue(pm.pageOf(i, cb, pb) < pm.stack().length);
            }
        }
        int checked = 0;
        for (int t = 0; t < r.accesses().threadblocks().size(); t++) {
            TbAccess a = r.accesses().threadblocks().get(t);
            for (int ch : a.remote()) {
                int si = space.storageIndexOf(ch);
                PageMap pm = pl.pages().get(si);
                int page = pm.pageOf(ch - space.storages().get(si).firstId(), cb, pb);
                assertEquals(pl.domainOfTb()[t], pm.domain()[page], "domain of the page r" + a.rank() + " tb " + a.tb() + " stores to");
                checked++;
            }
        }
        assertTrue(checked > 8000, "remote chunks checked: " + checked);
    }
}
