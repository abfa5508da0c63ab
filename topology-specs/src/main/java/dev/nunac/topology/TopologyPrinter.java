package dev.nunac.topology;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Deterministic text views of a topology: a summary and the fully expanded model. */
public final class TopologyPrinter {
    private TopologyPrinter() {}

    /** The summary {@code nunac topo show} prints. */
    public static String summary(Topology t) {
        StringBuilder b = new StringBuilder();
        RouterGraph g = t.noc();
        Noc noc = t.nocFigures();
        line(b, "topology %s: %s", t.name(), t.title());
        line(b, "noc: %s, %d routers, %d links, routing %s, %s MHz, %s cycles/hop (%s ns)",
                g.isMesh() ? g.meshWidth() + "x" + g.meshHeight() + " mesh" : "graph", t.routers().size(), t.links().size(),
                g.routing().label(), num(noc.clockMHz().value()), num(noc.hopCycles().value()),
                num(noc.cyclesToNs(noc.hopCycles().value())));
        List<String> ds = new ArrayList<>();
        for (Die d : t.dies()) ds.add(d.id() + " " + d.kind().label() + (d.on() >= 0 ? " on " + t.dies().get(d.on()).id() : ""));
        line(b, "dies: %d (%s)", t.dies().size(), String.join(", ", ds));
        line(b, "compute: %d CUs (%s); dispatch %s%s", t.cus().size(), perDie(t, t.cus().stream().mapToInt(ComputeUnit::die).toArray()),
                t.dispatch().rule().label(), t.dispatch().dies().isEmpty() ? "" : " over " + dieList(t, t.dispatch().dies()));
        line(b, "injection: %s GB/s per CU%s; per router %s GB/s in, %s GB/s out%s", num(t.cuInjectionGBs()),
                noc.cuInjectionGBs() == null ? " (default: the link bandwidth)" : "",
                routerLimit(t, noc.routerInjectionGBs(), true), routerLimit(t, noc.routerEjectionGBs(), false),
                noc.routerInjectionGBs() == null || noc.routerEjectionGBs() == null ? " (default: the router's links together)" : "");
        Memory m = t.memory();
        double totalBw = t.stacks().stream().mapToDouble(Stack::bandwidthGBs).sum();
        double totalCap = t.stacks().stream().mapToDouble(Stack::capacityGiB).sum();
        line(b, "memory: %d HBM stacks (%s); %s GB/s, %s GiB, %s ns each; total %s GB/s, %s GiB", t.stacks().size(),
                perDie(t, t.stacks().stream().mapToInt(Stack::die).toArray()), num(m.bandwidthGBs().value()),
                num(m.capacityGiB().value()), num(m.latencyNs().value()), num(totalBw), num(totalCap));
        Map<PortKind, Integer> kinds = new TreeMap<>();
        for (Port p : t.ports()) kinds.merge(p.kind(), 1, Integer::sum);
        List<String> ks = new ArrayList<>();
        for (var e : kinds.entrySet()) ks.add(e.getValue() + " " + e.getKey().label());
        line(b, "ports: %d (%s; by die: %s)", t.ports().size(), String.join(", ", ks),
                perDie(t, t.ports().stream().mapToInt(Port::die).toArray()));
        ScaleUp su = t.scaleUp();
        if (su.model() == ScaleUpModel.CLOS) {
            line(b, "scale-up: clos, %d switch planes, %s GB/s per port%s", t.scaleUpPorts().size(),
                    num(su.portBandwidthGBs().value()), su.gpus() > 0 ? ", " + su.gpus() + " GPUs" : "");
        } else {
            line(b, "scale-up: direct, %d GPUs per box, %s GB/s per port", su.gpus(), num(su.portBandwidthGBs().value()));
            for (int gpu = 0; gpu < su.gpus(); gpu++) {
                List<String> ps = new ArrayList<>();
                for (Port p : t.scaleUpPorts()) ps.add(p.id() + "->" + su.peer(gpu, p.plane()));
                line(b, "  gpu %d: %s", gpu, String.join(" ", ps));
            }
        }
        t.scaleOut().ifPresent(so -> {
            List<String> ns = new ArrayList<>();
            for (Nic n : so.nics()) ns.add(n.id() + " via " + t.ports().get(n.port()).id() + " " + n.distance());
            line(b, "scale-out: %d GPUs per box, %s ns, %s GB/s; NICs: %s", so.gpusPerBox(), num(so.latencyNs().value()),
                    num(so.bandwidthGBs().value()), ns.isEmpty() ? "none" : String.join(", ", ns));
        });
        int[] hops = new int[t.cus().size()];
        for (ComputeUnit c : t.cus()) {
            int[] near = t.nearestPorts(c.index());
            hops[c.index()] = near.length == 0 ? 0 : t.cuHopsToPort(c.index(), near[0]);
        }
        line(b, "CU -> nearest scale-up port: %s hops", stats(hops));
        Latencies l = t.latencies();
        line(b, "latencies: CU-to-NoC %s ns, memory %s ns, link %s ns%s", num(l.cuToNocNs().value()), num(l.memoryNs().value()),
                num(l.linkNs().value()), l.dieToDieNs() == null ? "" : ", die-to-die " + num(l.dieToDieNs().value()) + " ns");
        Budgets bu = t.budgets();
        line(b, "budgets: %s outstanding requests per CU, %s in-flight bytes per stack, page %d B%s",
                num(bu.outstandingPerCu().value()), num(bu.inFlightBytesPerStack().value()), bu.pageSize(),
                bu.threadblocksPerCu() == null ? "" : ", " + num(bu.threadblocksPerCu().value()) + " threadblocks per CU");
        for (int k : t.narGranularities()) {
            List<NarDomain> doms = t.narDomains(k);
            line(b, "NAR granularity %d: %d domain%s of %d ports%s", k, k, k == 1 ? "" : "s", doms.get(0).size(),
                    k == 1 ? " (baseline hashing)" : "");
            int[] count = new int[k];
            for (ComputeUnit c : t.cus()) count[t.nearestDomain(k, c.index())]++;
            for (NarDomain d : doms) {
                int[] h = new int[t.cus().size()];
                for (ComputeUnit c : t.cus()) h[c.index()] = t.hopsToPorts(c.index(), d.ports());
                line(b, "  domain %d: ports %s; %d CUs nearest; CU hops to domain %s", d.index(), ranges(d.ports()), count[d.index()], stats(h));
            }
        }
        Map<String, Quantity> qs = quantities(t);
        Map<Basis, List<String>> by = new TreeMap<>();
        for (var e : qs.entrySet()) by.computeIfAbsent(e.getValue().basis(), x -> new ArrayList<>()).add(e.getKey());
        // The peer map is no number, but it is as much measured or assumed as one (topology.md).
        Provenance peers = t.scaleUp().peersProvenance();
        if (peers != null) by.computeIfAbsent(peers.basis(), x -> new ArrayList<>()).add("scaleUp.peers");
        List<String> counts = new ArrayList<>();
        for (var e : by.entrySet()) counts.add(e.getValue().size() + " " + e.getKey().label());
        line(b, "provenance: %s", String.join(", ", counts));
        if (by.containsKey(Basis.ASSUMED)) line(b, "  assumed: %s", String.join(", ", by.get(Basis.ASSUMED)));
        return b.toString();
    }

    /** Every die, router, link, CU, stack and port after the generators ran; one item per line. */
    public static String expanded(Topology t) {
        StringBuilder b = new StringBuilder();
        line(b, "topology %s", t.name());
        for (var e : new TreeMap<>(t.sources()).entrySet()) line(b, "source %s: %s", e.getKey(), e.getValue());
        for (var e : quantities(t).entrySet()) {
            Quantity q = e.getValue();
            line(b, "value %s = %s [%s, %s]%s", e.getKey(), num(q.value()), q.basis().label(), q.source(),
                    q.note().isEmpty() ? "" : " " + q.note());
        }
        for (Die d : t.dies()) {
            line(b, "die %d %s %s at %d,%d%s", d.index(), d.id(), d.kind().label(), d.col(), d.row(),
                    d.on() >= 0 ? " on " + t.dies().get(d.on()).id() : "");
        }
        line(b, "routing %s", t.noc().routing().label());
        for (Router r : t.routers()) line(b, "router %d %s at %d,%d die %s", r.index(), r.id(), r.x(), r.y(), t.dies().get(r.die()).id());
        for (Link l : t.links()) {
            line(b, "link %s %s %s cycles %s GB/s", t.routers().get(l.from()).id(), t.routers().get(l.to()).id(),
                    num(l.latencyCycles()), num(l.bandwidthGBs()));
        }
        for (ComputeUnit c : t.cus()) {
            line(b, "cu %d router %s die %s bit %d", c.index(), t.routers().get(c.router()).id(), t.dies().get(c.die()).id(), c.maskBit());
        }
        line(b, "dispatch %s%s", t.dispatch().rule().label(), t.dispatch().dies().isEmpty() ? "" : " " + dieList(t, t.dispatch().dies()));
        for (Stack s : t.stacks()) {
            line(b, "stack %d %s router %s die %s %s GB/s %s GiB %s ns", s.index(), s.id(), t.routers().get(s.router()).id(),
                    t.dies().get(s.die()).id(), num(s.bandwidthGBs()), num(s.capacityGiB()), num(s.latencyNs()));
        }
        for (Port p : t.ports()) {
            line(b, "port %d %s %s router %s die %s%s %s GB/s", p.index(), p.id(), p.kind().label(), t.routers().get(p.router()).id(),
                    t.dies().get(p.die()).id(), p.plane() >= 0 ? " plane " + p.plane() : "", num(p.bandwidthGBs()));
        }
        ScaleUp su = t.scaleUp();
        line(b, "scale-up %s gpus %d", su.model().label(), su.gpus());
        for (int g = 0; g < su.peers().length; g++) {
            StringBuilder row = new StringBuilder();
            for (int peer : su.peers()[g]) row.append(' ').append(peer);
            line(b, "peers %d:%s", g, row);
        }
        t.scaleOut().ifPresent(so -> {
            line(b, "scale-out gpus-per-box %d", so.gpusPerBox());
            for (Nic n : so.nics()) line(b, "nic %s port %s %s", n.id(), t.ports().get(n.port()).id(), n.distance());
        });
        for (int k : t.narGranularities()) {
            for (NarDomain d : t.narDomains(k)) line(b, "nar %d domain %d ports %s", k, d.index(), ranges(d.ports()));
        }
        return b.toString();
    }

    /** Every provenanced number of the spec by its field path. */
    public static Map<String, Quantity> quantities(Topology t) {
        Map<String, Quantity> m = new LinkedHashMap<>();
        m.put("noc.clockMHz", t.nocFigures().clockMHz());
        m.put("noc.hopCycles", t.nocFigures().hopCycles());
        m.put("noc.linkBandwidthGBs", t.nocFigures().linkBandwidthGBs());
        if (t.nocFigures().routerInjectionGBs() != null) m.put("noc.routerInjectionGBs", t.nocFigures().routerInjectionGBs());
        if (t.nocFigures().routerEjectionGBs() != null) m.put("noc.routerEjectionGBs", t.nocFigures().routerEjectionGBs());
        if (t.nocFigures().cuInjectionGBs() != null) m.put("compute.injectionGBs", t.nocFigures().cuInjectionGBs());
        m.put("memory.bandwidthGBs", t.memory().bandwidthGBs());
        m.put("memory.capacityGiB", t.memory().capacityGiB());
        m.put("memory.latencyNs", t.memory().latencyNs());
        m.put("io.bandwidthGBs", t.scaleUp().portBandwidthGBs());
        t.scaleOut().ifPresent(so -> {
            m.put("scaleOut.latencyNs", so.latencyNs());
            m.put("scaleOut.bandwidthGBs", so.bandwidthGBs());
        });
        m.put("latencies.cuToNocNs", t.latencies().cuToNocNs());
        m.put("latencies.linkNs", t.latencies().linkNs());
        if (t.latencies().dieToDieNs() != null) m.put("latencies.dieToDieNs", t.latencies().dieToDieNs());
        m.put("budgets.outstandingPerCu", t.budgets().outstandingPerCu());
        if (t.budgets().threadblocksPerCu() != null) m.put("budgets.threadblocksPerCu", t.budgets().threadblocksPerCu());
        m.put("budgets.inFlightBytesPerStack", t.budgets().inFlightBytesPerStack());
        m.put("budgets.pageBytes", t.budgets().pageBytes());
        return m;
    }

    /** A router limit as given, or the range of the per-router defaults. */
    private static String routerLimit(Topology t, Quantity given, boolean in) {
        if (given != null) return num(given.value());
        double lo = Double.POSITIVE_INFINITY, hi = 0;
        for (Router r : t.routers()) {
            double v = in ? t.routerInjectionGBs(r.index()) : t.routerEjectionGBs(r.index());
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if (Double.isInfinite(hi)) return "unlimited";
        return lo == hi ? num(lo) : num(lo) + ".." + num(hi);
    }

    /** Index list as ranges: {@code 0..71, 80}. */
    public static String ranges(int[] xs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < xs.length; ) {
            int j = i;
            while (j + 1 < xs.length && xs[j + 1] == xs[j] + 1) j++;
            if (b.length() > 0) b.append(", ");
            b.append(xs[i]);
            if (j > i) b.append("..").append(xs[j]);
            i = j + 1;
        }
        return b.toString();
    }

    /** A number without trailing zeros, at most 3 decimals, independent of locale. */
    public static String num(double v) {
        return new BigDecimal(String.format(Locale.ROOT, "%.3f", v)).stripTrailingZeros().toPlainString();
    }

    private static String stats(int[] xs) {
        if (xs.length == 0) return "n/a";
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        long sum = 0;
        for (int x : xs) {
            min = Math.min(min, x);
            max = Math.max(max, x);
            sum += x;
        }
        return String.format(Locale.ROOT, "min %d, mean %.2f, max %d", min, (double) sum / xs.length, max);
    }

    private static String perDie(Topology t, int[] dieOfItem) {
        int[] n = new int[t.dies().size()];
        for (int d : dieOfItem) n[d]++;
        List<String> out = new ArrayList<>();
        for (Die d : t.dies()) if (n[d.index()] > 0) out.add(d.id() + " " + n[d.index()]);
        return String.join(", ", out);
    }

    private static String dieList(Topology t, List<Integer> ds) {
        List<String> out = new ArrayList<>();
        for (int d : ds) out.add(t.dies().get(d).id());
        return String.join(" ", out);
    }

    private static void line(StringBuilder b, String fmt, Object... args) {
        b.append(String.format(Locale.ROOT, fmt, args)).append('\n');
    }
}
