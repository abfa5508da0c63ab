package dev.nunac.passes.realise;

import dev.nunac.ir.Plan;
import dev.nunac.ir.TbNumbering;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Stage;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.topology.ComputeUnit;
import dev.nunac.topology.Dispatch;
import dev.nunac.topology.Topology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Realisation: turns CU choices into what hardware accepts.
 * <ul>
 * <li>CU masks in the vendor's bit order (the topology gives each CU's mask bit; MI300X SPX: bit
 * i selects XCD i mod 8).
 * <li>Under a modulo dispatch rule (MI300X SPX: block b runs on XCD b mod 8 whatever the mask) a
 * grid-slot order that puts each threadblock at a slot of its CU's die, padding with idle
 * blocks where the dies' loads differ; under round-robin dispatch the same order; otherwise the
 * threadblock's own index (NVIDIA: software pinning by SM id).
 * <li>Per NAR domain a stream mask covering its threadblocks' CUs; under modulo dispatch one CU
 * is added for every die the mask would leave empty: a HIP stream whose mask empties an XCD hangs.
 * </ul>
 */
public final class Realisation extends BasePass {
    public Realisation() {
        super("realisation", Stage.REALISED, java.util.List.of(Placement.KEY, TopologyInput.KEY), Stage.PLACED);
    }

    @Override
    public void run(Compilation c) {
        c.put(Realised.KEY, realise(c.plan(), c.get(Placement.KEY), c.get(TopologyInput.KEY)));
    }

    public static Realised realise(Plan plan, Placement pl, Topology topo) {
        int maxBit = 0;
        for (ComputeUnit cu : topo.cus()) maxBit = Math.max(maxBit, cu.maskBit());
        int words = maxBit / 32 + 1;
        Dispatch dispatch = topo.dispatch();
        List<Realised.RankLaunch> ranks = new ArrayList<>();
        TbNumbering tbs = TbNumbering.of(plan);
        for (int r = 0; r < plan.ranks(); r++) {
            int ntb = tbs.size(r), base = tbs.first(r);
            int[] cuOf = Arrays.copyOfRange(pl.cuOfTb(), base, base + ntb);
            int[] domainOf = Arrays.copyOfRange(pl.domainOfTb(), base, base + ntb);
            int[] slotOf = new int[ntb];
            int[] grid = gridOrder(topo, dispatch, cuOf, slotOf);
            List<int[]> masks = new ArrayList<>();
            for (int t = 0; t < ntb; t++) masks.add(mask(words, topo.maskBit(cuOf[t])));
            ranks.add(new Realised.RankLaunch(r, slotOf, grid, masks, streams(topo, words, cuOf, domainOf)));
        }
        return new Realised(dispatch.rule().label(), words, List.copyOf(ranks));
    }

    /** The most blocks any rank's launch grid needs for placement {@code pl}, padding included. */
    public static int widestGrid(Plan plan, Placement pl, Topology topo) {
        int widest = 0;
        TbNumbering tbs = TbNumbering.of(plan);
        for (int r = 0; r < plan.ranks(); r++) {
            int ntb = tbs.size(r);
            int[] cuOf = Arrays.copyOfRange(pl.cuOfTb(), tbs.first(r), tbs.first(r) + ntb);
            widest = Math.max(widest, gridOrder(topo, topo.dispatch(), cuOf, new int[ntb]).length);
        }
        return widest;
    }

    static int[] gridOrder(Topology topo, Dispatch dispatch, int[] cuOf, int[] slotOf) {
        int ntb = cuOf.length;
        if (dispatch.rule() == Dispatch.Rule.ANY || dispatch.dies().isEmpty()) {
            int[] grid = new int[ntb];
            for (int t = 0; t < ntb; t++) {
                grid[t] = t;
                slotOf[t] = t;
            }
            return grid;
        }
        List<Integer> dies = dispatch.dies();
        List<ArrayDeque<Integer>> queues = new ArrayList<>();
        for (int i = 0; i < dies.size(); i++) queues.add(new ArrayDeque<>());
        for (int t = 0; t < ntb; t++) {
            int die = topo.cus().get(cuOf[t]).die();
            int q = dies.indexOf(die);
            if (q < 0) {
                throw new IllegalStateException("CU " + cuOf[t] + " is on die " + die + ", which the dispatch rule of "
                        + topo.name() + " never sends blocks to");
            }
            queues.get(q).add(t);
        }
        List<Integer> grid = new ArrayList<>();
        int left = ntb;
        for (int b = 0; left > 0; b++) {
            ArrayDeque<Integer> q = queues.get(b % dies.size());
            if (q.isEmpty()) {
                grid.add(-1);
            } else {
                int t = q.poll();
                slotOf[t] = b;
                grid.add(t);
                left--;
            }
        }
        return grid.stream().mapToInt(Integer::intValue).toArray();
    }

    static int[] mask(int words, int bit) {
        int[] m = new int[words];
        set(m, bit);
        return m;
    }

    private static void set(int[] m, int bit) {
        m[bit / 32] |= 1 << (bit % 32);
    }

    static List<Realised.StreamMask> streams(Topology topo, int words, int[] cuOf, int[] domainOf) {
        // Only modulo dispatch (HIP on MI300X) sends blocks to every die regardless of the mask.
        boolean widen = topo.dispatch().rule() == Dispatch.Rule.MODULO;
        TreeMap<Integer, int[]> byDomain = new TreeMap<>();
        for (int t = 0; t < cuOf.length; t++) {
            int[] m = byDomain.computeIfAbsent(domainOf[t], d -> new int[words]);
            set(m, topo.maskBit(cuOf[t]));
        }
        List<Realised.StreamMask> out = new ArrayList<>();
        for (var e : byDomain.entrySet()) {
            int[] m = e.getValue();
            int added = 0;
            boolean[] dieSeen = new boolean[topo.dies().size()];
            for (ComputeUnit cu : topo.cus()) if (has(m, cu.maskBit())) dieSeen[cu.die()] = true;
            for (ComputeUnit cu : topo.cus()) {
                if (widen && !dieSeen[cu.die()]) {
                    set(m, cu.maskBit());
                    dieSeen[cu.die()] = true;
                    added++;
                }
            }
            int count = 0;
            for (int w : m) count += Integer.bitCount(w);
            out.add(new Realised.StreamMask(e.getKey(), m, count, added));
        }
        return List.copyOf(out);
    }

    private static boolean has(int[] m, int bit) {
        return (m[bit / 32] & (1 << (bit % 32))) != 0;
    }

}
