package dev.nunac.passes.realise;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import java.util.List;

/**
 * What real hardware accepts, per rank: the launch grid (threadblock per grid slot, -1 for an
 * idle padding block), each threadblock's CU mask in the vendor's bit order (32-bit words, word 0
 * holds bits 0..31), and one stream mask per NAR domain in use, widened so that no die (XCD) of
 * the mask is empty.
 */
public record Realised(String dispatch, int maskWords, List<RankLaunch> ranks) implements Product {
    public static final Key<Realised> KEY = Key.of("realisation", Realised.class);

    /** {@code slotOfTb[t]}: grid slot of threadblock t; {@code grid[s]}: threadblock at slot s or -1. */
    public record RankLaunch(int rank, int[] slotOfTb, int[] grid, List<int[]> tbMasks, List<StreamMask> streams) {}

    /** The CU mask of one domain's stream, and how many CUs were added to keep every die non-empty. */
    public record StreamMask(int domain, int[] mask, int cus, int addedForEmptyDies) {}

    @Override
    public void verify(Compilation c, Diagnostics d) {
        for (RankLaunch r : ranks) {
            int used = 0;
            for (int t : r.grid()) if (t >= 0) used++;
            if (used != r.slotOfTb().length) {
                d.error(c.plan().pos(), "rank " + r.rank() + ": grid holds " + used + " of " + r.slotOfTb().length + " threadblocks");
            }
            for (int t = 0; t < r.slotOfTb().length; t++) {
                if (r.grid()[r.slotOfTb()[t]] != t) d.error(c.plan().pos(), "rank " + r.rank() + ": slot of threadblock " + t + " is inconsistent");
            }
        }
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder("dispatch " + dispatch + "\n");
        for (RankLaunch r : ranks) {
            sb.append("rank ").append(r.rank()).append(" grid");
            for (int t : r.grid()) sb.append(' ').append(t);
            sb.append('\n');
        }
        return sb.toString();
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The mask as one hex number, most significant word first, 8 digits per word. */
    public static String hex(int[] words) {
        char[] out = new char[2 + 8 * words.length];
        out[0] = '0';
        out[1] = 'x';
        int k = 2;
        for (int i = words.length - 1; i >= 0; i--) {
            for (int shift = 28; shift >= 0; shift -= 4) out[k++] = HEX[(words[i] >>> shift) & 0xf];
        }
        return new String(out);
    }
}
