package dev.nunac.passes.cost;

import dev.nunac.topology.Link;
import dev.nunac.topology.Nic;
import dev.nunac.topology.Port;
import dev.nunac.topology.Topology;
import java.util.Arrays;
import java.util.List;

/**
 * Every bandwidth-limited resource of the pod as a FIFO server: per GPU, each NoC link in each
 * direction, each HBM stack, each I/O port (egress and ingress separately), each NIC (egress,
 * ingress), each CU's injection onto the NoC, and each router's injection (flits its attached
 * CUs, stacks and ports hand it) and ejection (flits it hands them). A server is a reservation timeline
 * reduced to the time it next falls free, plus the busy time accumulated for utilisation.
 */
final class Servers {
    enum Kind { LINK, STACK, PORT_OUT, PORT_IN, NIC_OUT, NIC_IN, CU, ROUTER_IN, ROUTER_OUT }

    final Topology topo;
    final int ranks;
    final int links, stacks, ports, nics, cus, routers, perRank;
    final int oLink, oStack, oPortOut, oPortIn, oNicOut, oNicIn, oCu, oRouterIn, oRouterOut;
    /** Directed link id (0 .. 2·links) of router pair (a, b), or -1. */
    final int[] linkOf;
    final int[] linkFrom, linkTo;
    final double[] linkNs, linkSvc;
    final double[] stackSvc, portSvc, nicSvc;
    /** Seconds per flit of a CU's injection, and of each router's injection and ejection (0: unlimited). */
    final double cuSvc;
    final double[] routerInSvc, routerOutSvc;
    /**
     * Per server, the time it next falls free at [2·id] and its busy time at [2·id + 1]: side by
     * side, a reservation touches one cache line, not two.
     */
    final double[] state;

    Servers(Topology topo, int ranks, int flitBytes) {
        this.topo = topo;
        this.ranks = ranks;
        List<Link> ls = topo.links();
        links = ls.size() * 2;
        stacks = topo.stacks().size();
        ports = topo.ports().size();
        List<Nic> ns = topo.scaleOut().map(so -> so.nics()).orElse(List.of());
        nics = ns.size();
        oLink = 0;
        oStack = oLink + links;
        oPortOut = oStack + stacks;
        oPortIn = oPortOut + ports;
        oNicOut = oPortIn + ports;
        oNicIn = oNicOut + nics;
        cus = topo.cus().size();
        routers = topo.routers().size();
        oCu = oNicIn + nics;
        oRouterIn = oCu + cus;
        oRouterOut = oRouterIn + routers;
        perRank = oRouterOut + routers;
        int n = routers;
        linkOf = new int[n * n];
        Arrays.fill(linkOf, -1);
        linkFrom = new int[links];
        linkTo = new int[links];
        linkNs = new double[links];
        linkSvc = new double[links];
        for (int i = 0; i < ls.size(); i++) {
            Link l = ls.get(i);
            double ns1 = topo.nocFigures().cyclesToNs(l.latencyCycles());
            double svc = flitBytes / l.bandwidthGBs();
            for (int dir = 0; dir < 2; dir++) {
                int id = 2 * i + dir;
                linkFrom[id] = dir == 0 ? l.from() : l.to();
                linkTo[id] = dir == 0 ? l.to() : l.from();
                linkOf[linkFrom[id] * n + linkTo[id]] = id;
                linkNs[id] = ns1;
                linkSvc[id] = svc;
            }
        }
        stackSvc = topo.stacks().stream().mapToDouble(s -> flitBytes / s.bandwidthGBs()).toArray();
        portSvc = topo.ports().stream().mapToDouble(p -> flitBytes / p.bandwidthGBs()).toArray();
        double netBw = topo.scaleOut().map(so -> so.bandwidthGBs().value()).orElse(Double.POSITIVE_INFINITY);
        nicSvc = ns.stream().mapToDouble(nc -> flitBytes / Math.min(nc.bandwidthGBs() > 0 ? nc.bandwidthGBs() : netBw, netBw)).toArray();
        cuSvc = flitBytes / topo.cuInjectionGBs();
        routerInSvc = new double[n];
        routerOutSvc = new double[n];
        for (int r = 0; r < n; r++) {
            routerInSvc[r] = flitBytes / topo.routerInjectionGBs(r);
            routerOutSvc[r] = flitBytes / topo.routerEjectionGBs(r);
        }
        state = new double[2 * perRank * ranks];
    }

    int count() {
        return perRank * ranks;
    }

    double busy(int id) {
        return state[2 * id + 1];
    }

    int link(int rank, int dirLink) {
        return rank * perRank + oLink + dirLink;
    }

    int stack(int rank, int s) {
        return rank * perRank + oStack + s;
    }

    int portOut(int rank, int p) {
        return rank * perRank + oPortOut + p;
    }

    int portIn(int rank, int p) {
        return rank * perRank + oPortIn + p;
    }

    int nicOut(int rank, int i) {
        return rank * perRank + oNicOut + i;
    }

    int nicIn(int rank, int i) {
        return rank * perRank + oNicIn + i;
    }

    int cu(int rank, int c) {
        return rank * perRank + oCu + c;
    }

    int routerIn(int rank, int r) {
        return rank * perRank + oRouterIn + r;
    }

    int routerOut(int rank, int r) {
        return rank * perRank + oRouterOut + r;
    }

    Kind kind(int id) {
        int o = id % perRank;
        if (o < oStack) return Kind.LINK;
        if (o < oPortOut) return Kind.STACK;
        if (o < oPortIn) return Kind.PORT_OUT;
        if (o < oNicOut) return Kind.PORT_IN;
        if (o < oNicIn) return Kind.NIC_OUT;
        if (o < oCu) return Kind.NIC_IN;
        if (o < oRouterIn) return Kind.CU;
        if (o < oRouterOut) return Kind.ROUTER_IN;
        return Kind.ROUTER_OUT;
    }

    /** A stable human name: {@code r0 link r3_2->r4_2}, {@code r1 port p17 in}, {@code r0 cu 12}, {@code r0 router r0_1 in}, ... */
    String name(int id) {
        int r = id / perRank, o = id % perRank;
        String p = "r" + r + " ";
        return switch (kind(id)) {
            case LINK -> p + "link " + router(linkFrom[o]) + "->" + router(linkTo[o]);
            case STACK -> p + "stack " + topo.stacks().get(o - oStack).id();
            case PORT_OUT -> p + "port " + topo.ports().get(o - oPortOut).id() + " out";
            case PORT_IN -> p + "port " + topo.ports().get(o - oPortIn).id() + " in";
            case NIC_OUT -> p + "nic " + topo.scaleOut().orElseThrow().nics().get(o - oNicOut).id() + " out";
            case NIC_IN -> p + "nic " + topo.scaleOut().orElseThrow().nics().get(o - oNicIn).id() + " in";
            case CU -> p + "cu " + (o - oCu);
            case ROUTER_IN -> p + "router " + router(o - oRouterIn) + " in";
            case ROUTER_OUT -> p + "router " + router(o - oRouterOut) + " out";
        };
    }

    private String router(int r) {
        var rt = topo.routers().get(r);
        return rt.id();
    }

    Port port(int p) {
        return topo.ports().get(p);
    }
}
