package dev.nunac.passes.cost;

/** The deterministic address hash that spreads flits over ports (a 64-bit finaliser). */
final class Hash {
    private Hash() {}

    static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    static int pick(long addr, int n) {
        return (int) Math.floorMod(mix(addr), (long) n);
    }
}
