package dev.nunac.emit;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How outputs are written, beyond the compilation itself: the prefix of placement.h's symbols
 * ({@code --header-prefix}), so that headers of several placements can be included in one
 * translation unit. The default, {@code nunac}, gives the names {@code nunac_tb_cu} and
 * {@code NUNAC_RANKS}; the rank the floorplan shows ({@code --rank}, default 0); and whether
 * placement.json and placement.h take the compact form ({@code --compact}: placement.json
 * version 3, see {@link PlacementJson#VERSION_COMPACT}).
 */
public record EmitSettings(String headerPrefix, int floorplanRank, boolean compact) {
    private static final Pattern IDENT = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    public static final String DEFAULT_PREFIX = "nunac";
    public static final EmitSettings DEFAULT = new EmitSettings(DEFAULT_PREFIX);

    public EmitSettings {
        if (!validPrefix(headerPrefix)) throw new IllegalArgumentException("not a header prefix: " + headerPrefix);
        if (floorplanRank < 0) throw new IllegalArgumentException("not a rank: " + floorplanRank);
    }

    public EmitSettings(String headerPrefix) {
        this(headerPrefix, 0);
    }

    public EmitSettings(String headerPrefix, int floorplanRank) {
        this(headerPrefix, floorplanRank, false);
    }

    /** The same settings, with the compact form on or off. */
    public EmitSettings withCompact(boolean on) {
        return new EmitSettings(headerPrefix, floorplanRank, on);
    }

    /** A C identifier of at most 64 characters that starts with a letter. */
    public static boolean validPrefix(String p) {
        return p != null && IDENT.matcher(p).matches();
    }

    /** The prefix of the header's arrays: {@code nunac_}. */
    public String symbol() {
        return headerPrefix + "_";
    }

    /** The prefix of the header's macros: {@code NUNAC_}. */
    public String macro() {
        return headerPrefix.toUpperCase(Locale.ROOT) + "_";
    }
}
