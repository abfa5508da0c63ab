package dev.nunac.ir;

/** A wait on step {@code step} of threadblock {@code tb} of the same rank. */
public record Dep(int tb, int step) implements Comparable<Dep> {
    @Override
    public int compareTo(Dep o) {
        return tb != o.tb ? Integer.compare(tb, o.tb) : Integer.compare(step, o.step);
    }

    @Override
    public String toString() {
        return "tb" + tb + "." + step;
    }
}
