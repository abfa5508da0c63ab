package dev.nunac.passes.place;

import dev.nunac.passes.access.TbAccess;
import dev.nunac.topology.Topology;

/** Hop counts, spills and budget use of a finished placement (see {@link PlacementStats}). */
final class PlacementMetrics {
    private PlacementMetrics() {}

    static PlacementStats of(Placer.Run p) {
        Topology topo = p.topo;
        HopsMemo hops = p.hops;
        double sumCu = 0, maxCu = 0, sumSt = 0, maxSt = 0;
        int nCu = 0, nSt = 0;
        for (int t = 0; t < p.cuOfTb.length; t++) {
            TbAccess a = p.acc.threadblocks().get(t);
            if (a.remote().length == 0) continue;
            int cuRouter = topo.cus().get(p.cuOfTb[t]).router();
            double tbSum = 0;
            for (int ch : a.remote()) {
                int q = p.acc.space().rankOf(ch);
                // A chunk larger than a page (natural layout) may span pages of different domains: average them.
                int si = p.acc.space().storageIndexOf(ch);
                int first = p.pages.firstPage(ch), last = p.pages.lastPage(ch);
                double cuHops = 0, stHops = 0;
                for (int page = first; page <= last; page++) {
                    int d = p.pages.domainOfPage(si, page);
                    cuHops += hops.mean(cuRouter, p.portsOf(a.rank(), q, d));
                    stHops += hops.mean(topo.stacks().get(p.pages.stackOfPage(si, page)).router(), p.portsOf(q, a.rank(), d));
                }
                int pages = Math.max(1, last - first + 1);
                tbSum += cuHops / pages;
                double h = stHops / pages;
                sumSt += h;
                maxSt = Math.max(maxSt, h);
                nSt++;
            }
            double mean = tbSum / a.remote().length;
            sumCu += mean;
            maxCu = Math.max(maxCu, mean);
            nCu++;
        }
        double maxCuLoad = 0, maxStackLoad = 0;
        for (long[] left : p.cuLeft) for (long l : left) maxCuLoad = Math.max(maxCuLoad, 1.0 - (double) l / p.window);
        for (long[] left : p.stackLeft) for (long l : left) maxStackLoad = Math.max(maxStackLoad, 1.0 - (double) l / p.stackBudget);
        return new PlacementStats(nCu == 0 ? 0 : sumCu / nCu, maxCu, nSt == 0 ? 0 : sumSt / nSt, maxSt, p.cuSpills,
                p.cuOverflows, p.stackSpills, p.stackOverflows, p.pages.conflicts, p.pages.untouched, maxCuLoad, maxStackLoad);
    }
}
