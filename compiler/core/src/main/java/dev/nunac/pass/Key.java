package dev.nunac.pass;

/** A typed slot for a pass's product in a {@link Compilation}. */
public record Key<T>(String name, Class<T> type) {
    public static <T> Key<T> of(String name, Class<T> type) {
        return new Key<>(name, type);
    }
}
