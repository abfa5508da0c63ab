package dev.nunac.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code index}-th of {@code count} disjoint parts of a sweep, 0-based as Slurm's
 * SLURM_ARRAY_TASK_ID and Kubernetes' JOB_COMPLETION_INDEX are. The sorted point ids are dealt
 * out in turn (the k-th to part k mod count), so the parts depend only on the ids, never on the
 * order or the machine a part runs on, and every part gets points of every plan and size.
 */
public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(0, 1);
    /** Far more parts than any job array has tasks. */
    public static final int MAX_COUNT = 1_000_000;

    public Shard {
        if (count < 1 || count > MAX_COUNT || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count);
        }
    }

    /** {@code i/n} with 0 &lt;= i &lt; n; null with the reason in {@code why[0]} when it is not one. */
    public static Shard parse(String text, String[] why) {
        String[] parts = text.trim().split("/", -1);
        if (parts.length != 2 || !digits(parts[0]) || !digits(parts[1]) || parts[0].length() > 7 || parts[1].length() > 7) {
            why[0] = "expected i/n, the i-th of n parts counted from 0 (e.g. 0/4 ... 3/4), got '" + text + "'";
            return null;
        }
        int i = Integer.parseInt(parts[0]);
        int n = Integer.parseInt(parts[1]);
        if (n < 1 || n > MAX_COUNT) {
            why[0] = "'" + text + "': the number of parts must be 1 to " + MAX_COUNT;
            return null;
        }
        if (i >= n) {
            why[0] = "'" + text + "': parts are counted from 0, so i must be below n (0/" + n + " ... " + (n - 1) + "/" + n + ")";
            return null;
        }
        return new Shard(i, n);
    }

    private static boolean digits(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The ids of this part. */
    public Set<String> of(List<String> ids) {
        List<String> sorted = new ArrayList<>(new TreeSet<>(ids));
        Set<String> out = new TreeSet<>();
        for (int k = index; k < sorted.size(); k += count) out.add(sorted.get(k));
        return out;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
