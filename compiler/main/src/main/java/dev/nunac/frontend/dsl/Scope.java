package dev.nunac.frontend.dsl;

/**
 * Lexical scope of names (params, lets, loop variables); values are Long or Boolean. Scopes hold
 * a handful of names and are made per loop iteration, so they are small arrays, not hash maps.
 */
final class Scope {
    private final Scope parent;
    private String[] names = new String[2];
    private Object[] values = new Object[2];
    private int size;

    Scope(Scope parent) {
        this.parent = parent;
    }

    Object lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            for (int i = s.size - 1; i >= 0; i--) if (s.names[i].equals(name)) return s.values[i];
        }
        return null;
    }

    boolean definedHere(String name) {
        for (int i = 0; i < size; i++) if (names[i].equals(name)) return true;
        return false;
    }

    void define(String name, Object value) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                values[i] = value;
                return;
            }
        }
        if (size == names.length) {
            names = java.util.Arrays.copyOf(names, size * 2);
            values = java.util.Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size++] = value;
    }
}
