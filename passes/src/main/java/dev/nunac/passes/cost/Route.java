package dev.nunac.passes.cost;

import java.util.Arrays;

/**
 * A path as a list of stages, each an optional server (bandwidth: seconds per flit) followed by
 * a fixed latency; {@link Parcel} moves flits along it.
 */
final class Route {
    int n;
    int[] server = new int[64];
    double[] svc = new double[64];
    double[] lat = new double[64];
    /** The stage where the remote store begins (its issue), -1 if none. */
    int storeStage = -1;

    void clear() {
        n = 0;
        storeStage = -1;
    }

    void add(int srv, double service, double latency) {
        if (n == server.length) {
            server = Arrays.copyOf(server, n * 2);
            svc = Arrays.copyOf(svc, n * 2);
            lat = Arrays.copyOf(lat, n * 2);
        }
        server[n] = srv;
        svc[n] = service;
        lat[n] = latency;
        n++;
    }

    /** Adds pure latency to the last stage (or a server-less stage). */
    void delay(double latency) {
        if (n == 0) add(-1, 0, latency);
        else lat[n - 1] += latency;
    }

    void markStore() {
        storeStage = n;
    }

    /** Zero-load latency of one flit from stage {@code from} on. */
    double zeroLoad(int from) {
        double s = 0;
        for (int i = from; i < n; i++) s += svc[i] + lat[i];
        return s;
    }
}
