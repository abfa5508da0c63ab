package dev.nunac.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;

/**
 * Loads the JNI library, in the order zstd-jni uses: an explicit file
 * ({@code -Dnunac.runtime.path=FILE}, with no fallback: whoever sets it knows better), then
 * {@code java.library.path} ({@code libnunart-jni-VERSION.so}), then the copy bundled in the jar,
 * extracted to a temporary file (folder: {@code -Dnunac.runtime.tmpdir}). The name carries the
 * version so that a stale library from another build is never picked up.
 */
final class NativeLoader {
    static final String PATH_PROPERTY = "nunac.runtime.path";
    static final String TMPDIR_PROPERTY = "nunac.runtime.tmpdir";
    static final String DISABLE_PROPERTY = "nunac.native.disable";

    private NativeLoader() {}

    static String version() {
        try (InputStream in = NativeLoader.class.getResourceAsStream("runtime.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }

    static String libraryName() {
        return "nunart-jni-" + version();
    }

    static String resourcePath() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64")) arch = "x86_64";
        return "/META-INF/native/linux-" + arch + "/" + System.mapLibraryName(libraryName());
    }

    /** Loads the library or throws UnsatisfiedLinkError with a message that says how to fix it. */
    static void load() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            throw new UnsatisfiedLinkError("the native runtime is disabled (-D" + DISABLE_PROPERTY + "=true)");
        }
        String explicit = System.getProperty(PATH_PROPERTY);
        if (explicit != null) {
            try {
                System.load(Path.of(explicit).toAbsolutePath().toString());
                return;
            } catch (UnsatisfiedLinkError e) {
                throw new UnsatisfiedLinkError("cannot load the runtime from -D" + PATH_PROPERTY + "=" + explicit + ": " + e.getMessage());
            }
        }
        try {
            System.loadLibrary(libraryName());
            return;
        } catch (UnsatisfiedLinkError e) {
            // Not on java.library.path: use the bundled copy.
        }
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            throw new UnsatisfiedLinkError("the native runtime is built for Linux only; this is " + System.getProperty("os.name"));
        }
        String res = resourcePath();
        try (InputStream in = NativeLoader.class.getResourceAsStream(res)) {
            if (in == null) throw new UnsatisfiedLinkError("no bundled native runtime (" + res + "): " + buildNote());
            String dir = System.getProperty(TMPDIR_PROPERTY);
            Path tmp = dir == null ? Files.createTempFile(libraryName(), ".so") : Files.createTempFile(Path.of(dir), libraryName(), ".so");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                System.load(tmp.toAbsolutePath().toString());
            } finally {
                // Linux keeps the mapping after the file is gone, so nothing is left behind.
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("cannot extract the bundled runtime " + res + " to a temporary file (set -D"
                    + TMPDIR_PROPERTY + "=DIR): " + e.getMessage());
        }
    }

    /** Why the build left the library out, as recorded by build-native.sh. */
    private static String buildNote() {
        try (InputStream in = NativeLoader.class.getResourceAsStream("/META-INF/native/unavailable.txt")) {
            if (in != null) return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            // fall through
        }
        return "this platform was not built (build with cmake and a C compiler present, or set -D" + PATH_PROPERTY + "=FILE)";
    }
}
