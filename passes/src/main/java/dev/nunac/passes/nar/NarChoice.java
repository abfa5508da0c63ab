package dev.nunac.passes.nar;

import dev.nunac.diag.Diagnostics;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Key;
import dev.nunac.pass.Product;
import java.util.List;
import java.util.Locale;

/**
 * The routing granularity placement uses. {@code granularity} is the number of NAR domains;
 * 1 means baseline hashing over all scale-up ports. On {@code direct} topologies the port is
 * fixed by the peer and {@code direct} is true. {@code candidates} lists what was considered,
 * with the cost model's estimate in ns where one was made (NaN otherwise).
 */
public record NarChoice(int granularity, boolean direct, String reason, List<Candidate> candidates) implements Product {
    public static final Key<NarChoice> KEY = Key.of("nar-selection", NarChoice.class);

    public record Candidate(int granularity, double estimateNs) {}

    public String label() {
        if (direct) return "direct (port per peer)";
        return granularity == 1 ? "1 (hashed over all ports)" : String.valueOf(granularity);
    }

    @Override
    public void verify(Compilation c, Diagnostics d) {
        if (granularity < 1) d.error(c.plan().pos(), "NAR granularity must be at least 1, is " + granularity);
    }

    @Override
    public String dump() {
        StringBuilder sb = new StringBuilder("granularity " + label() + " (" + reason + ")\n");
        for (Candidate cd : candidates) {
            sb.append("  candidate ").append(cd.granularity())
                    .append(Double.isNaN(cd.estimateNs()) ? "" : String.format(Locale.ROOT, " %.1f ns", cd.estimateNs()))
                    .append('\n');
        }
        return sb.toString();
    }
}
