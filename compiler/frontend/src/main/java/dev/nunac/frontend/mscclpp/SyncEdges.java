package dev.nunac.frontend.mscclpp;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Dep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns the barriers and semaphores of one GPU's threadblocks into dependency edges between
 * their NOP steps, so that the checker, placement and the cost model see the ordering they
 * impose:
 * <ul>
 * <li>a semaphore starts at its {@code init_value}; {@code sem_release} adds one and
 * {@code sem_acquire} waits for a positive value and takes one. The k-th acquire of a semaphore
 * (counted over its acquiring threadblocks in threadblock, then step order) therefore depends
 * on the (k - init)-th release, counted the same way. With one releasing and one acquiring
 * threadblock, which is what the MSCCL++ DSL emits, that is exact; with several it assumes they
 * take turns in threadblock order.
 * <li>a barrier with id b and {@code nthread_blocks} n: the k-th use of b by a threadblock
 * meets the k-th use by every other threadblock that uses b; each leaves only when all n have
 * arrived, so its leaving step depends on every other participant's arriving step.
 * </ul>
 * An acquire no release can satisfy, or a barrier that fewer or more threadblocks reach than it
 * counts, would hang the executor: both are errors that name the operation.
 */
final class SyncEdges {
    private SyncEdges() {}

    /** A step of a threadblock of this GPU. */
    private record At(int tb, int step) {}

    /**
     * The dependencies each step gains, indexed [threadblock][step]; empty lists where none.
     *
     * @param drafts     per threadblock, its lowered steps
     * @param initValues the gpu's semaphores' initial values
     */
    static List<List<List<Dep>>> of(int rank, List<List<OpLowering.Draft>> drafts, List<Integer> initValues, Diagnostics d) {
        List<List<TreeSet<Dep>>> deps = new ArrayList<>();
        for (List<OpLowering.Draft> tb : drafts) {
            List<TreeSet<Dep>> steps = new ArrayList<>();
            for (int i = 0; i < tb.size(); i++) steps.add(new TreeSet<>());
            deps.add(steps);
        }
        semaphores(rank, drafts, initValues, deps, d);
        barriers(rank, drafts, deps, d);
        List<List<List<Dep>>> out = new ArrayList<>();
        for (List<TreeSet<Dep>> tb : deps) {
            List<List<Dep>> steps = new ArrayList<>();
            for (TreeSet<Dep> s : tb) steps.add(List.copyOf(s));
            out.add(steps);
        }
        return out;
    }

    private static void semaphores(int rank, List<List<OpLowering.Draft>> drafts, List<Integer> initValues,
                                   List<List<TreeSet<Dep>>> deps, Diagnostics d) {
        Map<Integer, List<At>> releases = new TreeMap<>(), acquires = new TreeMap<>();
        forEachSync(drafts, (at, sync) -> {
            if (sync.kind() != OpLowering.Sync.Kind.RELEASE && sync.kind() != OpLowering.Sync.Kind.ACQUIRE) return;
            Map<Integer, List<At>> into = sync.kind() == OpLowering.Sync.Kind.RELEASE ? releases : acquires;
            for (int id : sync.ids()) into.computeIfAbsent(id, x -> new ArrayList<>()).add(at);
        });
        for (Map.Entry<Integer, List<At>> e : acquires.entrySet()) {
            int sem = e.getKey();
            int init = initValues.get(sem);
            List<At> rel = releases.getOrDefault(sem, List.of());
            List<At> acq = e.getValue();
            for (int k = init; k < acq.size(); k++) {
                At a = acq.get(k);
                OpLowering.Draft op = drafts.get(a.tb()).get(a.step());
                if (k - init >= rel.size()) {
                    d.error(op.pos(), "gpu " + rank + " threadblock " + a.tb() + ": this sem_acquire of semaphore " + sem
                            + " can never succeed: the semaphore starts at " + init + " and is released " + rel.size()
                            + " time(s) but acquired " + acq.size() + " time(s)");
                    return;
                }
                At r = rel.get(k - init);
                if (r.tb() != a.tb()) {
                    deps.get(a.tb()).get(a.step()).add(new Dep(r.tb(), r.step()));
                } else if (r.step() > a.step()) {
                    d.error(op.pos(), "gpu " + rank + " threadblock " + a.tb() + ": this sem_acquire of semaphore " + sem
                            + " waits for a sem_release later in the same threadblock, which can never run first");
                    return;
                }
            }
        }
    }

    private static void barriers(int rank, List<List<OpLowering.Draft>> drafts, List<List<TreeSet<Dep>>> deps, Diagnostics d) {
        // barrier id → use k → the arriving step of each threadblock that makes its k-th use
        Map<Integer, List<List<At>>> uses = new TreeMap<>();
        Map<At, Integer> usesSoFar = new java.util.HashMap<>(); // (threadblock, barrier id) → uses so far
        Map<Integer, Integer> counts = new TreeMap<>();
        forEachSync(drafts, (at, sync) -> {
            if (sync.kind() != OpLowering.Sync.Kind.ARRIVE) return;
            int id = sync.ids().get(0);
            List<List<At>> byUse = uses.computeIfAbsent(id, x -> new ArrayList<>());
            int k = usesSoFar.merge(new At(at.tb(), id), 1, Integer::sum) - 1;
            while (byUse.size() <= k) byUse.add(new ArrayList<>());
            byUse.get(k).add(at);
            Integer before = counts.putIfAbsent(id, sync.count());
            if (before != null && before != sync.count()) {
                d.error(drafts.get(at.tb()).get(at.step()).pos(), "gpu " + rank + " threadblock " + at.tb() + ": barrier "
                        + id + " counts " + sync.count() + " threadblocks here but " + before + " elsewhere");
            }
        });
        for (Map.Entry<Integer, List<List<At>>> e : uses.entrySet()) {
            int id = e.getKey(), n = counts.get(id);
            for (List<At> use : e.getValue()) {
                if (use.size() != n) {
                    At first = use.get(0);
                    List<String> tbs = new ArrayList<>();
                    for (At p : use) tbs.add(String.valueOf(p.tb()));
                    d.error(drafts.get(first.tb()).get(first.step()).pos(), "gpu " + rank + ": barrier " + id + " waits for "
                            + n + " threadblocks but " + use.size() + " reach it (threadblock" + (use.size() == 1 ? " " : "s ")
                            + String.join(", ", tbs) + "); the executor would wait forever");
                    continue;
                }
                for (At p : use) {
                    for (At q : use) if (q.tb() != p.tb()) deps.get(p.tb()).get(p.step() + 1).add(new Dep(q.tb(), q.step()));
                }
            }
        }
    }

    private interface SyncVisitor {
        void visit(At at, OpLowering.Sync sync);
    }

    private static void forEachSync(List<List<OpLowering.Draft>> drafts, SyncVisitor v) {
        for (int t = 0; t < drafts.size(); t++) {
            List<OpLowering.Draft> tb = drafts.get(t);
            for (int i = 0; i < tb.size(); i++) if (tb.get(i).sync() != null) v.visit(new At(t, i), tb.get(i).sync());
        }
    }
}
