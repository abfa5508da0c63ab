package dev.nunac.passes.cost;

/**
 * {@code m} flits moving together along a route. At each stage the head starts when both it and
 * the server are there, and the tail leaves no earlier than {@code m} service times later nor
 * before it arrived plus one service time: a pipelined batch through FIFO servers. A parcel
 * advances through as many stages as start within the simulator's horizon of the current
 * event, then waits for its next event, so each server sees its arrivals nearly in time order.
 */
final class Parcel {
    /**
     * Stage i's server id (as a double, -1: none), service time and latency at [3i], [3i + 1] and
     * [3i + 2]: one array, sized to the longest route this parcel has carried, so a stage reads one
     * cache line (tens of thousands of parcels are in flight; memory is what an event costs).
     */
    double[] stages = new double[0];
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
        if (stages.length < 3 * r.n) stages = new double[3 * r.n];
        double[] st = stages;
        for (int i = 0; i < r.n; i++) {
            st[3 * i] = r.server[i];
            st[3 * i + 1] = r.svc[i];
            st[3 * i + 2] = r.lat[i];
        }
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

    /** Runs stages whose head arrives by {@code until}; at least one. {@code servers}: {@link Servers#state}. */
    void advance(double[] servers, double until) {
        double[] st = stages;
        do {
            int i = stage;
            if (i == storeStage) {
                headStore = head;
                tailStore = tail;
            }
            int s = (int) st[3 * i];
            double sv = st[3 * i + 1], li = st[3 * i + 2];
            double hs = head;
            if (s >= 0) {
                hs = Math.max(head, servers[2 * s]);
                double te = Math.max(hs + m * sv, tail + sv);
                servers[2 * s] = te;
                servers[2 * s + 1] += m * sv;
                tail = te;
            } else {
                tail = Math.max(hs + m * sv, tail + sv);
            }
            if (i == 0) issueTail = tail;
            head = hs + sv + li;
            tail += li;
            stage++;
        } while (stage < n && head <= until);
        if (finished() && storeStage >= n) {
            headStore = head;
            tailStore = tail;
        }
    }
}
