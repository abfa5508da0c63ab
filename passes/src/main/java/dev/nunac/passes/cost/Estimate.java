package dev.nunac.passes.cost;

/**
 * A cost model's estimate: the completion time, the simulation behind it when one ran (else
 * null), and the threadblock (index in plan order) whose step delivered last, -1 if unknown.
 */
public record Estimate(double ns, SimResult simulation, int lastTb) {
    public static Estimate of(double ns, int lastTb) {
        return new Estimate(ns, null, lastTb);
    }
}
