package dev.nunac.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jgrapht.Graph;
import org.jgrapht.Graphs;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/**
 * The router graph with all-pairs tables computed once: placement asks for distances many
 * times per plan, so hop counts and latencies are O(1) lookups and paths are rebuilt from
 * predecessor tables. Routing is X-then-Y arithmetic on meshes under {@link Routing#XY}, and a
 * deterministic Dijkstra (latency, then hops, then lower predecessor index) otherwise.
 */
public final class RouterGraph {
    private final List<Router> routers;
    private final List<Link> links;
    private final Routing routing;
    private final int meshWidth;
    private final int meshHeight;
    private final Graph<Integer, DefaultWeightedEdge> graph;
    private final int[][] hops;
    private final double[][] latency;
    /** pred[s][v]: the router before v on the path from s; only for SHORTEST. */
    private final int[][] pred;
    private final int[] byCoord;
    private final List<List<Integer>> adj;

    /**
     * @param meshWidth  mesh columns, or 0 when the graph is not a generated mesh
     */
    public RouterGraph(List<Router> routers, List<Link> links, Routing routing, int meshWidth, int meshHeight) {
        this.routers = List.copyOf(routers);
        this.paths = new java.util.concurrent.atomic.AtomicReferenceArray<>(this.routers.size() * this.routers.size());
        this.links = List.copyOf(links);
        this.routing = routing;
        this.meshWidth = meshWidth;
        this.meshHeight = meshHeight;
        if (routing == Routing.XY && meshWidth == 0) throw new IllegalArgumentException("xy routing needs a mesh");
        int n = routers.size();
        graph = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        for (int i = 0; i < n; i++) graph.addVertex(i);
        for (Link l : links) {
            DefaultWeightedEdge e = graph.addEdge(l.from(), l.to());
            if (e == null) throw new IllegalArgumentException("duplicate or self link " + l);
            graph.setEdgeWeight(e, l.latencyCycles());
        }
        adj = new ArrayList<>(n);
        for (int v = 0; v < n; v++) {
            List<Integer> nb = Graphs.neighborListOf(graph, v);
            nb.sort(null);
            adj.add(List.copyOf(nb));
        }
        byCoord = new int[Math.max(meshWidth * meshHeight, 0)];
        Arrays.fill(byCoord, -1);
        if (meshWidth > 0) for (Router r : routers) byCoord[r.x() * meshHeight + r.y()] = r.index();
        hops = new int[n][n];
        latency = new double[n][n];
        if (routing == Routing.XY) {
            pred = null;
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    int[] p = xyPath(a, b);
                    hops[a][b] = p.length - 1;
                    latency[a][b] = pathLatency(p);
                }
            }
        } else {
            pred = new int[n][];
            for (int s = 0; s < n; s++) dijkstra(s);
        }
    }

    /** True when every router can reach every other. */
    public boolean connected() {
        return routers.isEmpty() || new ConnectivityInspector<>(graph).isConnected();
    }

    /** A read-only view of the router graph (vertices are router indices, weights link cycles). */
    public Graph<Integer, DefaultWeightedEdge> graph() {
        return new org.jgrapht.graph.AsUnmodifiableGraph<>(graph);
    }

    /** Neighbours of router v, ascending. */
    public List<Integer> neighbours(int v) {
        return adj.get(v);
    }

    public int size() {
        return routers.size();
    }

    public Routing routing() {
        return routing;
    }

    public boolean isMesh() {
        return meshWidth > 0;
    }

    public int meshWidth() {
        return meshWidth;
    }

    public int meshHeight() {
        return meshHeight;
    }

    /** Hops on the routed path from a to b; {@code Integer.MAX_VALUE} if unreachable. */
    public int hops(int a, int b) {
        return hops[a][b];
    }

    /** Sum of link latencies (cycles) on the routed path. */
    public double latencyCycles(int a, int b) {
        return latency[a][b];
    }

    /** Paths asked for so far, by {@code a * n + b}: the simulator asks each of its runs for the same ones. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<int[]> paths;

    /** The routed path from a to b, both ends included; shared between callers, so read-only. */
    public int[] path(int a, int b) {
        int key = a * routers.size() + b;
        int[] p = paths.get(key);
        if (p == null) {
            p = routedPath(a, b);
            paths.set(key, p);
        }
        return p;
    }

    private int[] routedPath(int a, int b) {
        if (routing == Routing.XY) return xyPath(a, b);
        if (hops[a][b] == Integer.MAX_VALUE) return new int[0];
        int[] p = new int[hops[a][b] + 1];
        int v = b;
        for (int i = p.length - 1; i >= 0; i--) {
            p[i] = v;
            v = pred[a][v];
        }
        return p;
    }

    private int[] xyPath(int a, int b) {
        Router ra = routers.get(a);
        Router rb = routers.get(b);
        int[] p = new int[Math.abs(ra.x() - rb.x()) + Math.abs(ra.y() - rb.y()) + 1];
        int x = ra.x();
        int y = ra.y();
        int i = 0;
        p[i++] = a;
        int sx = Integer.signum(rb.x() - x);
        while (x != rb.x()) {
            x += sx;
            p[i++] = byCoord[x * meshHeight + y];
        }
        int sy = Integer.signum(rb.y() - y);
        while (y != rb.y()) {
            y += sy;
            p[i++] = byCoord[x * meshHeight + y];
        }
        return p;
    }

    private double pathLatency(int[] p) {
        double sum = 0;
        for (int i = 1; i < p.length; i++) sum += graph.getEdgeWeight(graph.getEdge(p[i - 1], p[i]));
        return sum;
    }

    private void dijkstra(int s) {
        int n = routers.size();
        double[] dist = latency[s];
        int[] hp = hops[s];
        int[] pr = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(hp, Integer.MAX_VALUE);
        Arrays.fill(pr, -1);
        boolean[] done = new boolean[n];
        dist[s] = 0;
        hp[s] = 0;
        // Routers are few (hundreds), so an O(n^2) scan keeps the tie-break obvious.
        for (int iter = 0; iter < n; iter++) {
            int u = -1;
            for (int v = 0; v < n; v++) {
                if (done[v] || dist[v] == Double.POSITIVE_INFINITY) continue;
                if (u < 0 || dist[v] < dist[u] || (dist[v] == dist[u] && hp[v] < hp[u])) u = v;
            }
            if (u < 0) break;
            done[u] = true;
            for (int v : adj.get(u)) {
                if (done[v]) continue;
                double nd = dist[u] + graph.getEdgeWeight(graph.getEdge(u, v));
                int nh = hp[u] + 1;
                if (nd < dist[v] || (nd == dist[v] && (nh < hp[v] || (nh == hp[v] && u < pr[v])))) {
                    dist[v] = nd;
                    hp[v] = nh;
                    pr[v] = u;
                }
            }
        }
        pred[s] = pr;
    }
}
