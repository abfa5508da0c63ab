package dev.nunac.frontend.dsl;

import java.util.HashMap;
import java.util.Map;

/**
 * Lexical scope of names (params, lets, loop variables); values are Long or Boolean. Scopes hold
 * a handful of names and one serves every iteration of a loop, so they are small arrays; one that grows
 * past {@link #SMALL} names (a plan with thousands of params) gets a hash map, so that defining
 * and looking up stay constant-time instead of a scan per name.
 */
final class Scope {
    private static final int SMALL = 8;
    private final Scope parent;
    private String[] names = new String[2];
    private Object[] values = new Object[2];
    private int size;
    private Map<String, Object> large;

    Scope(Scope parent) {
        this.parent = parent;
    }

    Object lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Object v = s.own(name);
            if (v != null) return v;
        }
        return null;
    }

    boolean definedHere(String name) {
        return own(name) != null;
    }

    private Object own(String name) {
        if (large != null) return large.get(name);
        for (int i = size - 1; i >= 0; i--) if (same(names[i], name)) return values[i];
        return null;
    }

    /**
     * Names are the tokens' texts, interned by the front end, so the same name is mostly the same
     * string; the cached hash settles most of the rest without comparing characters.
     */
    private static boolean same(String a, String b) {
        return a == b || a.hashCode() == b.hashCode() && a.equals(b);
    }

    /** Forgets every name defined here: a loop's one body scope, emptied before each iteration. */
    void clear() {
        if (large != null) large = null;
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
    }

    void define(String name, Object value) {
        if (large != null) {
            large.put(name, value);
            return;
        }
        for (int i = 0; i < size; i++) {
            if (same(names[i], name)) {
                values[i] = value;
                return;
            }
        }
        if (size == SMALL) {
            large = new HashMap<>();
            for (int i = 0; i < size; i++) large.put(names[i], values[i]);
            large.put(name, value);
            return;
        }
        if (size == names.length) {
            names = java.util.Arrays.copyOf(names, size * 2);
            values = java.util.Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size++] = value;
    }
}
