package dev.nunac.frontend.dsl;

import java.util.HashMap;
import java.util.Map;

/** Lexical scope of names (params, lets, loop variables); values are Long or Boolean. */
final class Scope {
    private final Scope parent;
    private final Map<String, Object> names = new HashMap<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    Object lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Object v = s.names.get(name);
            if (v != null) return v;
        }
        return null;
    }

    boolean definedHere(String name) {
        return names.containsKey(name);
    }

    void define(String name, Object value) {
        names.put(name, value);
    }
}
