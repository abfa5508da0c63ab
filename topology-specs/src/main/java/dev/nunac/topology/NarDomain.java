package dev.nunac.topology;

/**
 * Domain {@code index} of NAR granularity {@code granularity}: the scale-up planes
 * [index·P/k, (index+1)·P/k), as port indices in plane order.
 */
public record NarDomain(int granularity, int index, int[] ports) {
    public NarDomain {
        ports = ports.clone();
    }

    @Override
    public int[] ports() {
        return ports.clone();
    }

    public int size() {
        return ports.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NarDomain d && d.granularity == granularity && d.index == index
                && java.util.Arrays.equals(d.ports, ports);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * granularity + index) + java.util.Arrays.hashCode(ports);
    }

    @Override
    public String toString() {
        return "NarDomain[k=" + granularity + ", d=" + index + ", ports=" + java.util.Arrays.toString(ports) + "]";
    }
}
