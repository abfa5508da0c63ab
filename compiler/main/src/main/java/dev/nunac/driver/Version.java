package dev.nunac.driver;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** nunac's version, from the build ({@code dev/nunac/version.properties}); {@code dev} when it has none. */
public final class Version {
    private static final String CURRENT = read();

    private Version() {}

    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/nunac/version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
