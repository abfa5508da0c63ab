package dev.nunac.passes.cost;

/**
 * {@code m} flits moving together along a route. At each stage the head starts when both it and
 * the server are there, and the tail leaves no earlier than {@code m} service times later nor
 * before it arrived plus one service time: a pipelined batch through FIFO servers. A parcel
 * advances through as many stages as start within the simulator's horizon of the current
 * event, then waits for its next event, so each server sees its arrivals nearly in time order.
 */
final class Parcel {
    final int[] server;
    final double[] svc, lat;
    final int storeStage;
    final double m;
    final Object owner;
    int stage;
    double head, tail;
    /** Head and tail when the store was issued, and when the stage-0 server (the CU) released them. */
    double headStore, tailStore, issueTail;

    Parcel(int[] server, double[] svc, double[] lat, int storeStage, double m, double t0, Object owner) {
        this.server = server;
        this.svc = svc;
        this.lat = lat;
        this.storeStage = storeStage;
        this.m = m;
        this.owner = owner;
        head = tail = headStore = tailStore = t0;
    }

    boolean finished() {
        return stage >= server.length;
    }

    /** Runs stages whose head arrives by {@code until}; at least one. */
    void advance(double[] free, double[] busy, double until) {
        do {
            int i = stage;
            if (i == storeStage) {
                headStore = head;
                tailStore = tail;
            }
            int s = server[i];
            double sv = svc[i];
            double hs = head;
            if (s >= 0) {
                hs = Math.max(head, free[s]);
                double te = Math.max(hs + m * sv, tail + sv);
                free[s] = te;
                busy[s] += m * sv;
                tail = te;
            } else {
                tail = Math.max(hs + m * sv, tail + sv);
            }
            if (i == 0) issueTail = tail;
            head = hs + sv + lat[i];
            tail += lat[i];
            stage++;
        } while (stage < server.length && head <= until);
        if (finished() && storeStage >= server.length) {
            headStore = head;
            tailStore = tail;
        }
    }
}
