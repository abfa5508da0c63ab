package dev.nunac.passes.cost;

import dev.nunac.topology.Nic;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.List;

/**
 * Builds the stage lists of the three kinds of traffic, with every constant from the spec: the
 * CU's injection (every flit a CU issues, a store's data or a load's request, passes it once, so
 * a batch leaves at the CU's rate), CU-to-NoC latency, router injection where a flit enters the
 * NoC from a CU, stack or port and router ejection where it leaves for one, NoC links along
 * {@code routerPath} (latency and bandwidth per link), HBM stack latency and bandwidth, I/O port
 * bandwidth, the scale-up traversal ({@code linkNs}: the switch under clos, the wire under
 * direct), and across boxes the NIC and network. Requests (a load's address) carry no data and
 * pass the links and routers with their latency only.
 */
final class Routes {
    /** How a store leaves its GPU: egress port, ingress port on the peer, NIC index or -1. */
    record Exit(int portOut, int portIn, int nic) {}

    final Topology topo;
    final Servers sv;
    final double cuToNoc, memNs, linkNs, netNs;
    final boolean direct;
    final int boxSize;
    final int[] allPorts;
    final List<Nic> nics;
    private final int[][][] nocPath;

    Routes(Topology topo, Servers sv, int ranks) {
        this.topo = topo;
        this.sv = sv;
        cuToNoc = topo.latencies().cuToNocNs().value();
        memNs = topo.memory().latencyNs().value();
        linkNs = topo.latencies().linkNs().value();
        netNs = topo.scaleOut().map(so -> so.latencyNs().value()).orElse(0.0);
        direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
        int box = topo.scaleOut().map(so -> so.gpusPerBox()).orElse(0);
        if (box <= 0) box = topo.scaleUp().gpus();
        if (box <= 0) box = ranks;
        boxSize = box;
        allPorts = topo.scaleUpPorts().stream().mapToInt(p -> p.index()).toArray();
        nics = topo.scaleOut().map(so -> so.nics()).orElse(List.of());
        int n = topo.routers().size();
        nocPath = new int[n][n][];
    }

    /** Directed link ids along the routed path from router a to b. */
    int[] path(int a, int b) {
        int[] p = nocPath[a][b];
        if (p == null) {
            int[] rs = topo.routerPath(a, b);
            int n = topo.routers().size();
            p = new int[Math.max(0, rs.length - 1)];
            for (int i = 1; i < rs.length; i++) p[i - 1] = sv.linkOf[rs[i - 1] * n + rs[i]];
            nocPath[a][b] = p;
        }
        return p;
    }

    /** The CU's injection: the first stage of every route, so the CU paces what it issues. */
    private void issue(Route rt, int rank, int cu, double latency) {
        rt.add(sv.cuSvc > 0 ? sv.cu(rank, cu) : -1, sv.cuSvc, latency);
    }

    /** Data entering the NoC at router {@code r} from one of its endpoints. */
    private void inject(Route rt, int rank, int r) {
        if (sv.routerInSvc[r] > 0) rt.add(sv.routerIn(rank, r), sv.routerInSvc[r], 0);
    }

    /** Data leaving the NoC at router {@code r} for one of its endpoints. */
    private void eject(Route rt, int rank, int r) {
        if (sv.routerOutSvc[r] > 0) rt.add(sv.routerOut(rank, r), sv.routerOutSvc[r], 0);
    }

    void noc(Route rt, int rank, int from, int to, boolean reserve) {
        for (int l : path(from, to)) {
            if (reserve) rt.add(sv.link(rank, l), sv.linkSvc[l], sv.linkNs[l]);
            else rt.add(-1, 0, sv.linkNs[l]);
        }
    }

    int cuRouter(int cu) {
        return topo.cus().get(cu).router();
    }

    int stackRouter(int s) {
        return topo.stacks().get(s).router();
    }

    int portRouter(int p) {
        return topo.ports().get(p).router();
    }

    /**
     * The ports a store from {@code rank} to {@code peer} may take: the NAR domain's ports, all
     * scale-up ports when hashed, the ports wired to the peer on direct topologies.
     */
    int[] candidates(int rank, int peer, int granularity, int domain) {
        if (direct) {
            int g = topo.scaleUp().gpus();
            return topo.portsToPeer(rank % g, peer % g);
        }
        if (granularity > 1 && domain >= 0) return topo.narDomains(granularity).get(domain).ports();
        return allPorts;
    }

    boolean crossesBoxes(int rank, int peer) {
        return rank / boxSize != peer / boxSize;
    }

    /** The exit of flit address {@code flitAddr} from {@code rank} to {@code peer}. */
    Exit exit(int rank, int peer, int granularity, int domain, long flitAddr) {
        if (crossesBoxes(rank, peer)) {
            if (nics.isEmpty()) throw new IllegalStateException("no NIC to reach GPU " + peer + " from GPU " + rank);
            int i = Hash.pick(flitAddr, nics.size());
            int p = nics.get(i).port();
            return new Exit(p, p, i);
        }
        int[] cand = candidates(rank, peer, granularity, domain);
        int j = Hash.pick(flitAddr, cand.length);
        int out = cand[j];
        if (direct) {
            int g = topo.scaleUp().gpus();
            int[] back = topo.portsToPeer(peer % g, rank % g);
            return new Exit(out, back[j % back.length], -1);
        }
        return new Exit(out, out, -1);
    }

    /** Load from a local stack (if {@code srcStack >= 0}), then store to {@code dstStack} on {@code peer}. */
    void remoteStore(Route rt, int rank, int cu, int srcStack, int peer, int dstStack, Exit ex) {
        rt.clear();
        int rc = cuRouter(cu);
        issue(rt, rank, cu, 0);
        if (srcStack >= 0) load(rt, rank, rc, srcStack);
        rt.markStore();
        rt.add(-1, 0, cuToNoc);
        inject(rt, rank, rc);
        int pr = portRouter(ex.portOut());
        noc(rt, rank, rc, pr, true);
        eject(rt, rank, pr);
        rt.add(sv.portOut(rank, ex.portOut()), sv.portSvc[ex.portOut()], 0);
        if (ex.nic() >= 0) {
            rt.add(sv.nicOut(rank, ex.nic()), sv.nicSvc[ex.nic()], netNs);
            int back = ex.nic() % nics.size();
            rt.add(sv.nicIn(peer, back), sv.nicSvc[back], 0);
        } else {
            rt.delay(linkNs);
        }
        rt.add(sv.portIn(peer, ex.portIn()), sv.portSvc[ex.portIn()], 0);
        inject(rt, peer, portRouter(ex.portIn()));
        noc(rt, peer, portRouter(ex.portIn()), stackRouter(dstStack), true);
        eject(rt, peer, stackRouter(dstStack));
        rt.add(sv.stack(peer, dstStack), sv.stackSvc[dstStack], memNs);
    }

    /** Read from a stack on {@code peer} into {@code dstStack} locally (get): request out, data back. */
    void remoteLoad(Route rt, int rank, int cu, int peer, int srcStack, int dstStack, Exit ex) {
        rt.clear();
        int rc = cuRouter(cu);
        issue(rt, rank, cu, cuToNoc);
        noc(rt, rank, rc, portRouter(ex.portOut()), false);
        rt.add(-1, 0, ex.nic() >= 0 ? netNs : linkNs);
        noc(rt, peer, portRouter(ex.portIn()), stackRouter(srcStack), false);
        rt.add(sv.stack(peer, srcStack), sv.stackSvc[srcStack], memNs);
        rt.markStore();
        inject(rt, peer, stackRouter(srcStack));
        noc(rt, peer, stackRouter(srcStack), portRouter(ex.portIn()), true);
        eject(rt, peer, portRouter(ex.portIn()));
        rt.add(sv.portOut(peer, ex.portIn()), sv.portSvc[ex.portIn()], ex.nic() >= 0 ? netNs : linkNs);
        rt.add(sv.portIn(rank, ex.portOut()), sv.portSvc[ex.portOut()], 0);
        inject(rt, rank, portRouter(ex.portOut()));
        noc(rt, rank, portRouter(ex.portOut()), rc, true);
        eject(rt, rank, rc);
        rt.add(-1, 0, cuToNoc);
        inject(rt, rank, rc);
        noc(rt, rank, rc, stackRouter(dstStack), true);
        eject(rt, rank, stackRouter(dstStack));
        rt.add(sv.stack(rank, dstStack), sv.stackSvc[dstStack], memNs);
    }

    /** Load from a local stack into the CU (a background kernel's input). */
    void localLoad(Route rt, int rank, int cu, int stack) {
        rt.clear();
        issue(rt, rank, cu, 0);
        load(rt, rank, cuRouter(cu), stack);
    }

    /** Load from one local stack and store to another (copy, reduce). */
    void local(Route rt, int rank, int cu, int srcStack, int dstStack) {
        rt.clear();
        int rc = cuRouter(cu);
        issue(rt, rank, cu, 0);
        if (srcStack >= 0) load(rt, rank, rc, srcStack);
        rt.add(-1, 0, cuToNoc);
        inject(rt, rank, rc);
        noc(rt, rank, rc, stackRouter(dstStack), true);
        eject(rt, rank, stackRouter(dstStack));
        rt.add(sv.stack(rank, dstStack), sv.stackSvc[dstStack], memNs);
    }

    /**
     * A read: the request travels to the stack with the links' latency only (it carries an
     * address, not a flit of data, as for remote loads), the stack serves the data, and the
     * data comes back over the routers and links with their bandwidth.
     */
    private void load(Route rt, int rank, int rc, int stack) {
        rt.add(-1, 0, cuToNoc);
        noc(rt, rank, rc, stackRouter(stack), false);
        rt.add(sv.stack(rank, stack), sv.stackSvc[stack], memNs);
        inject(rt, rank, stackRouter(stack));
        noc(rt, rank, stackRouter(stack), rc, true);
        eject(rt, rank, rc);
    }
}
