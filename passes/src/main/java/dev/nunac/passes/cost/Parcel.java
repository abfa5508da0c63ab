package dev.nunac.passes.cost;

/**
 * {@code m} flits moving together along a route. At each stage the head starts when both it and
 * the server are there, and the tail leaves no earlier than {@code m} service times later nor
 * before it arrived plus one service time: a pipelined batch through FIFO servers. A parcel
 * advances through as many stages as start within the simulator's horizon of the current
 * event, then waits for its next event, so each server sees its arrivals nearly in time order.
 */
final class Parcel {
    int[] server = new int[64];
    double[] svc = new double[64], lat = new double[64];
    /** Stages of the route. */
    int n;
    int storeStage;
    double m;
    Object owner;
    int stage;
    double head, tail;
    /** Head and tail when the store was issued, and when the stage-0 server (the CU) released them. */
    double headStore, tailStore, issueTail;

    /**
     * Loads a route into this parcel (a parcel is reused once it has finished: a simulation moves
     * hundreds of thousands of them, and copying a route into warm arrays beats allocating three).
     */
    Parcel load(Route r, double m, double t0, Object owner) {
        if (server.length < r.n) {
            server = new int[r.n];
            svc = new double[r.n];
            lat = new double[r.n];
        }
        System.arraycopy(r.server, 0, server, 0, r.n);
        System.arraycopy(r.svc, 0, svc, 0, r.n);
        System.arraycopy(r.lat, 0, lat, 0, r.n);
        n = r.n;
        storeStage = r.storeStage;
        this.m = m;
        this.owner = owner;
        stage = 0;
        head = tail = headStore = tailStore = issueTail = t0;
        return this;
    }

    boolean finished() {
        return stage >= n;
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
        } while (stage < n && head <= until);
        if (finished() && storeStage >= n) {
            headStore = head;
            tailStore = tail;
        }
    }
}
