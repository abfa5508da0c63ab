package dev.nunac.passes.place;

/**
 * What a placement cost and bought. Hops are NoC router hops: CU→port over the ports each
 * threadblock's remote stores use (the mean over a hashed or NAR port set, which the traffic
 * is balanced over), stack→port from each remote chunk's page to the receiving ports on the
 * peer. Spills: a threadblock placed outside its port set's fair share of CUs, or a page not on
 * its preferred stack for lack of budget; overflows: nothing had budget left; conflicts: a page
 * whose stack an earlier chunk fixed differently (first come, first served).
 */
public record PlacementStats(double meanCuPortHops, double maxCuPortHops, double meanStackPortHops,
                             double maxStackPortHops, int cuSpills, int cuOverflows, int stackSpills,
                             int stackOverflows, int pageConflicts, int pagesUntouched, double maxCuLoad,
                             double maxStackLoad) {}
