package dev.nunac.runtime;

import java.util.Locale;
import java.util.Set;

/**
 * Entry point of the runtime shim. Whether the native library loaded is decided once; when it
 * did not, {@link #unavailabilityCause()} says why and every entry point throws with that cause.
 * <pre>
 * try (Session s = NunaRuntime.open("host", null)) {
 *     s.load(launchTableText); s.allocate(); s.launch(); s.verify();
 *     System.out.print(s.report());
 * }
 * </pre>
 */
public final class NunaRuntime {
    public static final Set<String> BACKENDS = Set.of("auto", "host", "cuda", "hip");
    private static final Throwable UNAVAILABILITY_CAUSE = probe();

    private NunaRuntime() {}

    private static Throwable probe() {
        try {
            NativeLoader.load();
            String v = NativeBinding.text(NativeBinding.nVersion());
            if (!v.equals(NativeLoader.version())) {
                return new UnsatisfiedLinkError("native runtime version " + v + " does not match the Java side " + NativeLoader.version());
            }
            return null;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return e;
        }
    }

    public static boolean isAvailable() {
        return UNAVAILABILITY_CAUSE == null;
    }

    /** Why the native runtime cannot be used, or null when it can. */
    public static Throwable unavailabilityCause() {
        return UNAVAILABILITY_CAUSE;
    }

    public static void ensureAvailability() {
        if (UNAVAILABILITY_CAUSE != null) {
            UnsatisfiedLinkError e = new UnsatisfiedLinkError("the nunac native runtime is unavailable: " + UNAVAILABILITY_CAUSE.getMessage());
            e.initCause(UNAVAILABILITY_CAUSE);
            throw e;
        }
    }

    public static String version() {
        return NativeLoader.version();
    }

    /**
     * Opens a context on a backend ({@link #BACKENDS}); options as nunart_open's (e.g.
     * {@code "cus=304 dies=8 timeout_ms=5000"}, or null). Throws RuntimeFailure when the backend
     * cannot run here, with the reason.
     */
    public static Session open(String backend, String options) {
        ensureAvailability();
        String b = backend == null ? "auto" : backend.toLowerCase(Locale.ROOT);
        if (b.indexOf('\0') >= 0 || (options != null && options.indexOf('\0') >= 0)) {
            throw new RuntimeFailure(RuntimeFailure.Status.ARGUMENT, "the backend name and options must not contain NUL characters");
        }
        long h = NativeBinding.nOpen(NativeBinding.utf8(b), NativeBinding.utf8(options));
        if (h == 0) throw new RuntimeFailure(RuntimeFailure.Status.MEMORY, "out of memory opening a runtime context");
        Session s = new Session(h);
        if (s.state().equals("failed")) {
            // The native status keeps the kind (argument, unavailable, mismatch, ...).
            RuntimeFailure.Status st = RuntimeFailure.statusOf(NativeBinding.nStatus(h));
            String msg = NativeBinding.text(NativeBinding.nMessage(h));
            s.close();
            throw new RuntimeFailure(st, msg);
        }
        return s;
    }
}
