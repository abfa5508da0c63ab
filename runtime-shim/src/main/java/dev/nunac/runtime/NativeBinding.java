package dev.nunac.runtime;

import java.nio.charset.StandardCharsets;

/**
 * The JNI entry points (runtime-shim/src/jni.c); handles are native context pointers. Strings
 * cross as UTF-8 bytes both ways: JNI's own string calls use modified UTF-8, which mangles
 * characters outside the Basic Multilingual Plane and cannot report a failed conversion.
 */
final class NativeBinding {
    private NativeBinding() {}

    /** UTF-8 bytes of a string for the native side; null stays null. */
    static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** A native string (UTF-8 bytes); null (the JVM could not allocate it) reads as a note saying so. */
    static String text(byte[] b) {
        return b == null ? "(the native text could not be passed to Java: out of memory)" : new String(b, StandardCharsets.UTF_8);
    }

    static native byte[] nVersion();

    /** 0 when the arguments could not be passed (out of memory); no context is opened then. */
    static native long nOpen(byte[] backend, byte[] options);

    /** The status of the handle's last call (nunart_last_status). */
    static native int nStatus(long h);

    static native int nLoad(long h, byte[] table);

    static native int nAlloc(long h);

    static native int nLaunch(long h);

    static native int nVerify(long h);

    static native byte[] nMessage(long h);

    static native byte[] nReport(long h);

    static native byte[] nState(long h);

    static native float[] nOutput(long h, int rank);

    static native int[] nGridOrder(long h, int rank);

    /** The rank a per-rank table holds, -1 for a whole table (nunart_part_rank). */
    static native int nPartRank(long h);

    /** CU, die, grid slot and domain of a threadblock; null on failure (nunart_tb_placement). */
    static native int[] nTbPlacement(long h, int rank, int tb);

    static native double nTime(long h, int n, int pinned);

    static native void nClose(long h);
}
