package dev.nunac.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One GPU model as the passes see it: immutable, with the distance tables placement needs
 * precomputed. "Distance" between two routers is the routed path's link latency (cycles), then
 * its hop count; every ordering breaks remaining ties by index, so results are total and
 * deterministic. Obtain instances from {@link TopologyLoader} or {@link TopologyResolver}.
 */
public final class Topology {
    private final String name;
    private final String title;
    private final Map<String, String> sources;
    private final List<Die> dies;
    private final RouterGraph noc;
    private final Noc nocFigures;
    private final List<Router> routers;
    private final List<Link> links;
    private final List<ComputeUnit> cus;
    private final Dispatch dispatch;
    private final List<Stack> stacks;
    private final Memory memory;
    private final List<Port> ports;
    private final List<Port> planes;
    private final ScaleUp scaleUp;
    private final ScaleOut scaleOut;
    private final Latencies latencies;
    private final Budgets budgets;
    private final int[] granularities;
    private final Provenance narProvenance;

    private final int[][] stacksByRouter;
    private final int[][] planesByRouter;
    private final Map<Integer, List<NarDomain>> domains = new java.util.TreeMap<>();
    private final Map<Integer, int[]> nearestDomain = new java.util.TreeMap<>();
    // Orders placement asks for once per compile; topologies are shared, so the caches are concurrent.
    private final Map<String, int[]> cuOrderCache = new ConcurrentHashMap<>();
    private final Map<String, int[]> stackOrderCache = new ConcurrentHashMap<>();
    private final int[] cuOfMaskBit;

    Topology(String name, String title, Map<String, String> sources, List<Die> dies, RouterGraph noc, Noc nocFigures,
            List<Link> links, List<Router> routers, List<ComputeUnit> cus, Dispatch dispatch, List<Stack> stacks,
            Memory memory, List<Port> ports, ScaleUp scaleUp, ScaleOut scaleOut, Latencies latencies, Budgets budgets,
            int[] granularities, Provenance narProvenance) {
        this.name = name;
        this.title = title;
        this.sources = Map.copyOf(sources);
        this.dies = List.copyOf(dies);
        this.noc = noc;
        this.nocFigures = nocFigures;
        this.links = List.copyOf(links);
        this.routers = List.copyOf(routers);
        this.cus = List.copyOf(cus);
        this.dispatch = dispatch;
        this.stacks = List.copyOf(stacks);
        this.memory = memory;
        this.ports = List.copyOf(ports);
        this.planes = this.ports.stream().filter(p -> p.plane() >= 0).sorted(Comparator.comparingInt(Port::plane)).toList();
        this.scaleUp = scaleUp;
        this.scaleOut = scaleOut;
        this.latencies = latencies;
        this.budgets = budgets;
        this.granularities = granularities.clone();
        this.narProvenance = narProvenance;

        int n = routers.size();
        stacksByRouter = new int[n][];
        planesByRouter = new int[n][];
        for (int r = 0; r < n; r++) {
            stacksByRouter[r] = order(stacks.size(), i -> stacks.get(i).router(), r);
            planesByRouter[r] = Arrays.stream(order(planes.size(), i -> planes.get(i).router(), r))
                    .map(i -> planes.get(i).index()).toArray();
        }
        int maxBit = cus.stream().mapToInt(ComputeUnit::maskBit).max().orElse(-1);
        cuOfMaskBit = new int[maxBit + 1];
        Arrays.fill(cuOfMaskBit, -1);
        for (ComputeUnit c : cus) cuOfMaskBit[c.maskBit()] = c.index();
        int p = planes.size();
        for (int k : granularities) {
            List<NarDomain> ds = new ArrayList<>(k);
            for (int d = 0; d < k; d++) {
                int lo = d * p / k;
                int hi = (d + 1) * p / k;
                int[] ps = new int[hi - lo];
                for (int i = lo; i < hi; i++) ps[i - lo] = planes.get(i).index();
                ds.add(new NarDomain(k, d, ps));
            }
            domains.put(k, List.copyOf(ds));
            int[] near = new int[n];
            for (int r = 0; r < n; r++) {
                int best = 0;
                for (int d = 1; d < k; d++) {
                    if (compareDist(distToPorts(r, ds.get(d).ports()), distToPorts(r, ds.get(best).ports())) < 0) best = d;
                }
                near[r] = best;
            }
            nearestDomain.put(k, near);
        }
    }

    // ---- identity and raw lists ----

    public String name() {
        return name;
    }

    public String title() {
        return title;
    }

    /** Citation keys used by the provenance of every number. */
    public Map<String, String> sources() {
        return sources;
    }

    public List<Die> dies() {
        return dies;
    }

    public List<Router> routers() {
        return routers;
    }

    public List<Link> links() {
        return links;
    }

    public List<ComputeUnit> cus() {
        return cus;
    }

    public List<Stack> stacks() {
        return stacks;
    }

    /** All I/O ports (scale-up, host, NIC) by index. */
    public List<Port> ports() {
        return ports;
    }

    /** The scale-up ports in plane order (plane i = element i). */
    public List<Port> scaleUpPorts() {
        return planes;
    }

    public RouterGraph noc() {
        return noc;
    }

    public Noc nocFigures() {
        return nocFigures;
    }

    public Memory memory() {
        return memory;
    }

    /**
     * How fast one CU puts flits onto the NoC (GB/s): {@code compute.injectionGBs}, or where the
     * spec does not give it the NoC's default link bandwidth (a CU can fill one link).
     */
    public double cuInjectionGBs() {
        return nocFigures.cuInjectionGBs() != null ? nocFigures.cuInjectionGBs().value() : nocFigures.linkBandwidthGBs().value();
    }

    /**
     * How fast a router accepts flits from its attached CUs, stacks and ports together (GB/s):
     * {@code noc.routerInjectionGBs}, or where the spec does not give it the router's links
     * together (it cannot take in more than it can pass on; unlimited for a router without links).
     */
    public double routerInjectionGBs(int router) {
        return nocFigures.routerInjectionGBs() != null ? nocFigures.routerInjectionGBs().value() : linkBandwidthAt(router);
    }

    /** How fast a router delivers flits to its attached endpoints together (GB/s); the default as for injection. */
    public double routerEjectionGBs(int router) {
        return nocFigures.routerEjectionGBs() != null ? nocFigures.routerEjectionGBs().value() : linkBandwidthAt(router);
    }

    private double linkBandwidthAt(int router) {
        double bw = 0;
        for (Link l : links) if (l.from() == router || l.to() == router) bw += l.bandwidthGBs();
        return bw > 0 ? bw : Double.POSITIVE_INFINITY;
    }

    public Dispatch dispatch() {
        return dispatch;
    }

    public ScaleUp scaleUp() {
        return scaleUp;
    }

    public Optional<ScaleOut> scaleOut() {
        return Optional.ofNullable(scaleOut);
    }

    public Latencies latencies() {
        return latencies;
    }

    public Budgets budgets() {
        return budgets;
    }

    public Provenance narProvenance() {
        return narProvenance;
    }

    // ---- routers ----

    /** Hops between two routers on the routed path. */
    public int hops(int routerA, int routerB) {
        return noc.hops(routerA, routerB);
    }

    /** The routed router path, both ends included. */
    public int[] routerPath(int routerA, int routerB) {
        return noc.path(routerA, routerB);
    }

    /** NoC latency (ns) of the routed path, excluding fixed latencies. */
    public double nocLatencyNs(int routerA, int routerB) {
        return nocFigures.cyclesToNs(noc.latencyCycles(routerA, routerB));
    }

    // ---- compute units ----

    public Die dieOfCu(int cu) {
        return dies.get(cus.get(cu).die());
    }

    public int maskBit(int cu) {
        return cus.get(cu).maskBit();
    }

    /** The CU a vendor mask bit selects, or -1. */
    public int cuOfMaskBit(int bit) {
        return bit >= 0 && bit < cuOfMaskBit.length ? cuOfMaskBit[bit] : -1;
    }

    /** Hops from a CU's router to a port's router. */
    public int cuHopsToPort(int cu, int port) {
        return noc.hops(cus.get(cu).router(), ports.get(port).router());
    }

    /** Hops from a CU's router to the router of the stack nearest it. */
    public int cuHopsToNearestStack(int cu) {
        return noc.hops(cus.get(cu).router(), stacks.get(stacksByDistanceFromCu(cu)[0]).router());
    }

    /** Scale-up ports (port indices) nearest first, ties by plane. */
    public int[] portsByDistance(int cu) {
        return planesByRouter[cus.get(cu).router()].clone();
    }

    /** All scale-up ports at the least distance from the CU, by plane. */
    public int[] nearestPorts(int cu) {
        int r = cus.get(cu).router();
        int[] all = planesByRouter[r];
        if (all.length == 0) return all;
        long best = dist(r, ports.get(all[0]).router());
        return Arrays.stream(all).filter(p -> dist(r, ports.get(p).router()) == best).toArray();
    }

    /**
     * All CUs ordered by distance to the nearest of {@code portSet} (port indices), ties by CU
     * index. Cached per port set: placement asks once per NAR domain.
     */
    public int[] cusByDistance(int... portSet) {
        int[] key = portSet.clone();
        Arrays.sort(key);
        int[] order = cuOrderCache.computeIfAbsent(Arrays.toString(key), k -> {
            long[] d = new long[routers.size()];
            for (int r = 0; r < d.length; r++) d[r] = distToPorts(r, key);
            return cus.stream().sorted(Comparator.<ComputeUnit>comparingLong(c -> d[c.router()]).thenComparingInt(ComputeUnit::index))
                    .mapToInt(ComputeUnit::index).toArray();
        });
        return order.clone();
    }

    /** All CUs ordered by distance from a router (e.g. a stack's), ties by CU index. Cached per router. */
    public int[] cusByDistanceFromRouter(int router) {
        int[] order = cuOrderCache.computeIfAbsent("router " + router, k -> cus.stream()
                .sorted(Comparator.<ComputeUnit>comparingLong(c -> dist(c.router(), router)).thenComparingInt(ComputeUnit::index))
                .mapToInt(ComputeUnit::index).toArray());
        return order.clone();
    }

    /** Stacks ordered by distance to the nearest port of the set, ties by stack index. Cached per port set. */
    public int[] stacksByDistanceToPorts(int... portSet) {
        int[] key = portSet.clone();
        Arrays.sort(key);
        int[] order = stackOrderCache.computeIfAbsent(Arrays.toString(key), k -> {
            long[] d = new long[stacks.size()];
            for (int s = 0; s < d.length; s++) d[s] = distToPorts(stacks.get(s).router(), key);
            return java.util.stream.IntStream.range(0, stacks.size()).boxed()
                    .sorted(Comparator.<Integer>comparingLong(s -> d[s]).thenComparingInt(s -> s)).mapToInt(Integer::intValue).toArray();
        });
        return order.clone();
    }

    /** Least hops from a CU to any port of the set. */
    public int hopsToPorts(int cu, int... portSet) {
        int r = cus.get(cu).router();
        int best = Integer.MAX_VALUE;
        for (int p : portSet) best = Math.min(best, noc.hops(r, ports.get(p).router()));
        return best;
    }

    // ---- stacks ----

    /** Stacks nearest first from the CU, ties by stack index. */
    public int[] stacksByDistanceFromCu(int cu) {
        return stacksByRouter[cus.get(cu).router()].clone();
    }

    /** Stacks nearest first from the port (e.g. the receiving port on a peer), ties by index. */
    public int[] stacksByDistanceFromPort(int port) {
        return stacksByRouter[ports.get(port).router()].clone();
    }

    /** Stacks nearest first from a router. */
    public int[] stacksByDistanceFromRouter(int router) {
        return stacksByRouter[router].clone();
    }

    // ---- NAR ----

    /** Supported NAR granularities, ascending; 1 is baseline hashing over all scale-up ports. */
    public int[] narGranularities() {
        return granularities.clone();
    }

    /** The domains of granularity k; domain d holds planes [d·P/k, (d+1)·P/k). */
    public List<NarDomain> narDomains(int k) {
        List<NarDomain> ds = domains.get(k);
        if (ds == null) throw new IllegalArgumentException("granularity " + k + " is not supported by " + name);
        return ds;
    }

    /** The domain of granularity k nearest to the CU (ties to the lower domain). */
    public int nearestDomain(int k, int cu) {
        return nearestDomainOfRouter(k, cus.get(cu).router());
    }

    /** The domain of granularity k nearest to a router, e.g. a stack's (ties to the lower domain). */
    public int nearestDomainOfRouter(int k, int router) {
        narDomains(k);
        return nearestDomain.get(k)[router];
    }

    // ---- scale-up ----

    /** Direct only: the scale-up port of GPU {@code gpu} that reaches {@code peer} (the lowest plane if several). */
    public int portToPeer(int gpu, int peer) {
        int[] ps = portsToPeer(gpu, peer);
        if (ps.length == 0) throw new IllegalArgumentException("GPU " + gpu + " has no port to GPU " + peer);
        return ps[0];
    }

    /** Direct only: every scale-up port of GPU {@code gpu} wired to {@code peer}, by plane. */
    public int[] portsToPeer(int gpu, int peer) {
        if (scaleUp.model() != ScaleUpModel.DIRECT) throw new IllegalStateException(name + " is not a direct topology");
        if (gpu < 0 || gpu >= scaleUp.gpus() || peer < 0 || peer >= scaleUp.gpus()) {
            throw new IllegalArgumentException("GPU out of range 0.." + (scaleUp.gpus() - 1));
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < planes.size(); i++) if (scaleUp.peer(gpu, i) == peer) out.add(planes.get(i).index());
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Direct only: the GPU that scale-up port {@code port} of GPU {@code gpu} reaches. */
    public int peerOfPort(int gpu, int port) {
        if (scaleUp.model() != ScaleUpModel.DIRECT) throw new IllegalStateException(name + " is not a direct topology");
        Port p = ports.get(port);
        if (p.plane() < 0) throw new IllegalArgumentException("port " + p.id() + " is not a scale-up port");
        return scaleUp.peer(gpu, p.plane());
    }

    // ---- helpers ----

    /** Distance key: latency cycles (scaled to an integer) then hops, so comparisons are exact. */
    private long dist(int ra, int rb) {
        long lat = Math.round(noc.latencyCycles(ra, rb) * 1000.0);
        return lat * 4096 + noc.hops(ra, rb);
    }

    private long distToPorts(int router, int[] portSet) {
        long best = Long.MAX_VALUE;
        for (int p : portSet) best = Math.min(best, dist(router, ports.get(p).router()));
        return best;
    }

    private static int compareDist(long a, long b) {
        return Long.compare(a, b);
    }

    private int[] order(int count, java.util.function.IntUnaryOperator routerOf, int from) {
        Integer[] idx = new Integer[count];
        for (int i = 0; i < count; i++) idx[i] = i;
        Arrays.sort(idx, Comparator.<Integer>comparingLong(i -> dist(from, routerOf.applyAsInt(i))).thenComparingInt(i -> i));
        return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
    }
}
