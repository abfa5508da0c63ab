package dev.nunac.topology;

import java.util.List;

/** Beyond one box: GPUs per box, the NICs this GPU uses, and the network's latency and bandwidth. */
public record ScaleOut(int gpusPerBox, List<Nic> nics, Quantity latencyNs, Quantity bandwidthGBs) {
    public ScaleOut {
        nics = List.copyOf(nics);
    }
}
