package dev.nunac.passes.place;

import dev.nunac.pass.Key;
import dev.nunac.topology.Topology;

/** The topology a compilation places onto, as an input of the passes. */
public final class TopologyInput {
    private TopologyInput() {}

    public static final Key<Topology> KEY = Key.of("topology", Topology.class);
}
