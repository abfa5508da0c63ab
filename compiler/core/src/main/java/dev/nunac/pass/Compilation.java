package dev.nunac.pass;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.Plan;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The state of one compilation: the plan, the passes' products by key, the stages reached and
 * the diagnostics. Owned by one thread; nothing global.
 */
public final class Compilation {
    private Plan plan;
    private final Diagnostics diagnostics;
    private final Map<Key<?>, Object> products = new HashMap<>();
    private final EnumSet<Stage> reached = EnumSet.noneOf(Stage.class);
    private final Map<String, Long> nanosByPass = new java.util.LinkedHashMap<>();

    public Compilation(Plan plan, Diagnostics diagnostics) {
        this.plan = plan;
        this.diagnostics = diagnostics;
        reached.add(Stage.PARSED);
    }

    public Plan plan() {
        return plan;
    }

    /** Replaces the plan (a pass that rewrites the IR). */
    public void plan(Plan p) {
        this.plan = p;
    }

    public Diagnostics diagnostics() {
        return diagnostics;
    }

    public <T> void put(Key<T> key, T value) {
        products.put(key, key.type().cast(value));
    }

    public <T> T get(Key<T> key) {
        Object v = products.get(key);
        if (v == null) throw new IllegalStateException("no " + key.name() + " in this compilation: a pass is missing");
        return key.type().cast(v);
    }

    public <T> java.util.Optional<T> find(Key<T> key) {
        return java.util.Optional.ofNullable(key.type().cast(products.get(key)));
    }

    public Map<Key<?>, Object> products() {
        return java.util.Collections.unmodifiableMap(products);
    }

    public boolean reached(Stage s) {
        return reached.contains(s);
    }

    public Set<Stage> stages() {
        return EnumSet.copyOf(reached);
    }

    void reach(Stage s) {
        reached.add(s);
    }

    void timed(String pass, long nanos) {
        nanosByPass.merge(pass, nanos, Long::sum);
    }

    /** Wall time spent in each pass that ran, in run order (nanoseconds). */
    public Map<String, Long> timings() {
        return java.util.Collections.unmodifiableMap(nanosByPass);
    }
}
