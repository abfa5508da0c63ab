package dev.nunac.passes.place;

import java.util.Locale;
import java.util.Optional;

/**
 * The paper's configurations (§5.3), all served by one placement code path:
 * <ul>
 * <li>UA: hardware-default threadblock dispatch, round-robin pages, traffic hashed over all ports
 * <li>NUMA: threadblocks near their data (baseline pages)
 * <li>NAP: NUNA-aware threadblocks and pages (Algorithm 1)
 * <li>NAP*: NUNA-aware threadblocks, baseline pages
 * <li>+NAR: traffic routed through NAR domains instead of hashed over all ports
 * </ul>
 */
public enum Policy {
    UA("ua", Compute.DEFAULT, false, false),
    UA_NAR("ua+nar", Compute.DEFAULT, false, true),
    NUMA("numa", Compute.NEAR_DATA, false, false),
    NUMA_NAR("numa+nar", Compute.NEAR_DATA, false, true),
    NAP("nap", Compute.NEAR_PORTS, true, false),
    NAP_NAR("nap+nar", Compute.NEAR_PORTS, true, true),
    NAP_STAR("nap*", Compute.NEAR_PORTS, false, false);

    /** How threadblocks are given CUs. */
    public enum Compute { DEFAULT, NEAR_DATA, NEAR_PORTS }

    private final String id;
    public final Compute compute;
    /** Pages placed by Algorithm 1 rather than round-robin. */
    public final boolean napMemory;
    /** Traffic routed through NAR domains. */
    public final boolean nar;

    Policy(String id, Compute compute, boolean napMemory, boolean nar) {
        this.id = id;
        this.compute = compute;
        this.napMemory = napMemory;
        this.nar = nar;
    }

    public String id() {
        return id;
    }

    public static Optional<Policy> parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (Policy p : values()) if (p.id.equals(k)) return Optional.of(p);
        return Optional.empty();
    }

    public static String ids() {
        StringBuilder sb = new StringBuilder();
        for (Policy p : values()) sb.append(sb.length() == 0 ? "" : ", ").append(p.id);
        return sb.toString();
    }
}
