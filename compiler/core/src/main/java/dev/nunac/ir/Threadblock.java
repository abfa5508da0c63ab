package dev.nunac.ir;

import dev.nunac.diag.SourcePos;
import java.util.List;

/**
 * A threadblock of one rank: at most one send peer and one recv peer (-1 for none) on one
 * channel, and its steps in execution order.
 */
public record Threadblock(int id, int sendPeer, int recvPeer, int channel, List<Step> steps, SourcePos pos) {
    public Threadblock {
        steps = List.copyOf(steps);
    }

    public Threadblock withSteps(List<Step> s) {
        return new Threadblock(id, sendPeer, recvPeer, channel, s, pos);
    }

    public Threadblock withId(int newId) {
        return new Threadblock(newId, sendPeer, recvPeer, channel, steps, pos);
    }
}
