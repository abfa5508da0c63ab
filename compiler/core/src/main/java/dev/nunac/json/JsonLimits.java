package dev.nunac.json;

import dev.nunac.ir.Limits;

/**
 * The bounds {@link JsonReader} reads a document under. A topology spec, a workload or a sweep
 * spec is a page of JSON with fixed bounds ({@link #DOCUMENT}); a plan's follow its
 * {@link Limits}, which the user can raise, and the messages say how ({@code settable}).
 *
 * @param what       what the document is, for messages about the file ("topology spec")
 * @param maxBytes   bytes of the whole document
 * @param maxDepth   nesting of arrays and objects
 * @param maxString  characters of one string
 * @param maxNumber  characters of one number
 * @param maxName    characters of one member name
 * @param maxValues  values in the whole document
 * @param maxMembers members of one object
 * @param maxSeconds seconds a file that is a FIFO or device may take to deliver its bytes
 * @param settable   whether {@code --limit} raises the limits (named in the messages)
 */
public record JsonLimits(String what, long maxBytes, int maxDepth, int maxString, int maxNumber, int maxName, long maxValues,
                         int maxMembers, int maxSeconds, boolean settable) {
    /** A page of JSON: a topology spec, its override, a workload, a sweep spec or a sweep's result files. */
    public static final JsonLimits DOCUMENT = new JsonLimits("JSON document", 4 << 20, 32, 1 << 16, 40, 256, Long.MAX_VALUE,
            Integer.MAX_VALUE, 5, false);

    /** An imported plan: bytes, nesting, values, members and seconds from the plan limits. */
    public static JsonLimits plan(Limits l) {
        return new JsonLimits("plan", l.maxInputBytes(), l.maxNesting(), 1 << 20, 64, 50_000, l.maxElements(), l.maxAttributes(),
                l.maxInputSeconds(), true);
    }

    /** These bounds for a document called {@code what} of at most {@code bytes} bytes. */
    public JsonLimits of(String what, long bytes) {
        return new JsonLimits(what, bytes, maxDepth, maxString, maxNumber, maxName, maxValues, maxMembers, maxSeconds, settable);
    }

    /** How to raise the limit called {@code name}, when the user can. */
    String raise(String name) {
        return settable ? " (raise the limit with --limit " + name + "=N)" : "";
    }
}
