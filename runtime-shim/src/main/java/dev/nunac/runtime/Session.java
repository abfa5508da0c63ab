package dev.nunac.runtime;

import java.nio.charset.StandardCharsets;

/**
 * One runtime context (nunart.h): opened → validated → buffers ready → launched → verified.
 * A failed step throws {@link RuntimeFailure} and leaves the context failed (terminal); the
 * report still says what happened. Not thread-safe; close it (try-with-resources).
 */
public final class Session implements AutoCloseable {
    private long handle;

    Session(long handle) {
        this.handle = handle;
    }

    private long h() {
        if (handle == 0) throw new RuntimeFailure(RuntimeFailure.Status.STATE, "the session is closed");
        return handle;
    }

    private void check(int status) {
        if (status != 0) throw new RuntimeFailure(RuntimeFailure.statusOf(status), NativeBinding.text(NativeBinding.nMessage(handle)));
    }

    /** Parses the launch table and validates it against the device. */
    public Session load(String launchTable) {
        check(NativeBinding.nLoad(h(), launchTable.getBytes(StandardCharsets.UTF_8)));
        return this;
    }

    public Session allocate() {
        check(NativeBinding.nAlloc(h()));
        return this;
    }

    public Session launch() {
        check(NativeBinding.nLaunch(h()));
        return this;
    }

    public Session verify() {
        check(NativeBinding.nVerify(h()));
        return this;
    }

    /** The launch report: key: value lines (docs/runtime.md). */
    public String report() {
        return NativeBinding.text(NativeBinding.nReport(h()));
    }

    public LaunchReport parsedReport() {
        return LaunchReport.parse(report());
    }

    /** opened, validated, buffers-ready, launched, verified or failed. */
    public String state() {
        return NativeBinding.text(NativeBinding.nState(h()));
    }

    /** The output buffer of a rank after a launch, as floats. */
    public float[] output(int rank) {
        float[] out = NativeBinding.nOutput(h(), rank);
        if (out == null) throw lastFailure();
        return out;
    }

    /** The realised grid order of a rank: threadblock per slot, -1 for padding. */
    public int[] gridOrder(int rank) {
        int[] out = NativeBinding.nGridOrder(h(), rank);
        if (out == null) throw lastFailure();
        return out;
    }

    /**
     * The rank a per-rank launch table holds ({@code nunac --per-rank --emit launch}), or -1 for a
     * whole table. Such a table loads for its rank's placement (grid order, {@link #placement});
     * {@link #allocate} refuses it, as its transfers need the other ranks' tables.
     */
    public int partRank() {
        return NativeBinding.nPartRank(h());
    }

    /** Where a threadblock of a rank is placed: its CU, die, grid slot and NAR domain. */
    public TbPlacement placement(int rank, int tb) {
        int[] p = NativeBinding.nTbPlacement(h(), rank, tb);
        if (p == null) throw lastFailure();
        return new TbPlacement(p[0], p[1], p[2], p[3]);
    }

    /** Median microseconds of n launches, pinned (placement applied) or plain. */
    public double timeLaunches(int n, boolean pinned) {
        double us = NativeBinding.nTime(h(), n, pinned ? 1 : 0);
        if (us < 0) throw lastFailure();
        return us;
    }

    /** The last call's failure with its own kind (argument, device, timeout, ...), not a guess. */
    private RuntimeFailure lastFailure() {
        return new RuntimeFailure(RuntimeFailure.statusOf(NativeBinding.nStatus(handle)), NativeBinding.text(NativeBinding.nMessage(handle)));
    }

    @Override
    public void close() {
        if (handle != 0) {
            NativeBinding.nClose(handle);
            handle = 0;
        }
    }
}
