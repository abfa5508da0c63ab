package dev.nunac.frontend.mscclpp;

import java.util.List;
import java.util.Map;

/**
 * What a threadblock's operations refer to by index: the gpu's channels per type (memory,
 * port: the peer rank of each; switch: the buffer and rank group) and its remote buffers, seen
 * through the threadblock's own lists ({@code channels}, {@code remote_buffer_refs}); and how
 * many semaphores the gpu declares.
 */
record Resources(int rank, Map<String, List<Integer>> peers, List<SwitchChannel> switches,
                 List<RemoteBuffer> remoteBuffers, int semaphores, Map<String, List<Integer>> tbChannels,
                 Map<String, List<Integer>> tbRemoteBuffers) {
    record SwitchChannel(String buffer, List<Integer> ranks) {}

    record RemoteBuffer(int rank, String buffer) {}

    Resources forThreadblock(Map<String, List<Integer>> channels, Map<String, List<Integer>> remote) {
        return new Resources(rank, peers, switches, remoteBuffers, semaphores, channels, remote);
    }

    /** The gpu-level channel behind an operation's {@code channel_ids} entry; -1 when out of range. */
    int channel(String type, int opIndex) {
        List<Integer> ids = tbChannels.getOrDefault(type, List.of());
        return opIndex >= 0 && opIndex < ids.size() ? ids.get(opIndex) : -1;
    }

    /** The peer rank of a memory or port channel of the gpu; -1 when out of range. */
    int peer(String type, int channel) {
        List<Integer> ps = peers.getOrDefault(type, List.of());
        return channel >= 0 && channel < ps.size() ? ps.get(channel) : -1;
    }

    /** Which of the gpu's channels to {@code peer} (of the type) this is: MSCCL++ pairs the k-th ones. */
    int ordinal(String type, int channel) {
        List<Integer> ps = peers.getOrDefault(type, List.of());
        int k = 0;
        for (int i = 0; i < channel; i++) if (ps.get(i).equals(ps.get(channel))) k++;
        return k;
    }

    /**
     * The connection number of a memory or port channel to its peer, the same on both ends of a
     * well-formed plan: memory channels to that peer first, in order, then port channels. The
     * executor connects the k-th channel of a type from a to b with the k-th from b to a, and a
     * signal is seen only by the wait on the other end of its own channel.
     */
    int connection(String type, int channel) {
        int k = ordinal(type, channel);
        if (!type.equals("port")) return k;
        int peer = peer(type, channel);
        int memory = 0;
        for (int p : peers.getOrDefault("memory", List.of())) if (p == peer) memory++;
        return memory + k;
    }

    /** The remote buffer behind an operand's {@code buffer_id}; null when out of range. */
    RemoteBuffer remote(String accessType, int bufferId) {
        List<Integer> ids = tbRemoteBuffers.get(accessType);
        if (ids == null && tbRemoteBuffers.size() == 1) ids = tbRemoteBuffers.values().iterator().next();
        if (ids == null || bufferId < 0 || bufferId >= ids.size()) return null;
        int g = ids.get(bufferId);
        return g >= 0 && g < remoteBuffers.size() ? remoteBuffers.get(g) : null;
    }
}
