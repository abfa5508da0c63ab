package dev.nunac.runtime;

/** The JNI entry points (runtime-shim/src/jni.c); handles are native context pointers. */
final class NativeBinding {
    private NativeBinding() {}

    static native String nVersion();

    static native long nOpen(String backend, String options);

    static native int nLoad(long h, byte[] table);

    static native int nAlloc(long h);

    static native int nLaunch(long h);

    static native int nVerify(long h);

    static native String nMessage(long h);

    static native String nReport(long h);

    static native String nState(long h);

    static native float[] nOutput(long h, int rank);

    static native int[] nGridOrder(long h, int rank);

    static native double nTime(long h, int n, int pinned);

    static native void nClose(long h);
}
