package dev.nunac.topology;

import java.util.Arrays;

/**
 * The scale-up network. For {@code direct}, {@code peers[g][i]} is the GPU that scale-up port
 * (plane) i of GPU g reaches; for {@code clos} {@code peers} is empty and {@code gpus} the pod size
 * (0 when unbounded). {@code peersProvenance} is the basis of the peer map ({@code direct}: the
 * spec's {@code scaleUp} basis, source and note), null where there is none ({@code clos}).
 */
public record ScaleUp(ScaleUpModel model, int gpus, int[][] peers, Quantity portBandwidthGBs, Provenance peersProvenance) {
    public ScaleUp {
        int[][] copy = new int[peers.length][];
        for (int g = 0; g < peers.length; g++) copy[g] = peers[g].clone();
        peers = copy;
    }

    /** A scale-up network whose peer map has no recorded basis. */
    public ScaleUp(ScaleUpModel model, int gpus, int[][] peers, Quantity portBandwidthGBs) {
        this(model, gpus, peers, portBandwidthGBs, null);
    }

    /** The GPU that plane {@code plane} of GPU {@code gpu} reaches (direct only). */
    public int peer(int gpu, int plane) {
        return peers[gpu][plane];
    }

    @Override
    public int[][] peers() {
        int[][] copy = new int[peers.length][];
        for (int g = 0; g < peers.length; g++) copy[g] = peers[g].clone();
        return copy;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScaleUp s && s.model == model && s.gpus == gpus && Arrays.deepEquals(s.peers, peers)
                && s.portBandwidthGBs.equals(portBandwidthGBs) && java.util.Objects.equals(s.peersProvenance, peersProvenance);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(peers) * 31 + model.hashCode() + gpus;
    }

    @Override
    public String toString() {
        return "ScaleUp[" + model.label() + ", gpus=" + gpus + ", peers=" + Arrays.deepToString(peers) + "]";
    }
}
