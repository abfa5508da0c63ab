package dev.nunac.pass;

import java.util.Set;

/**
 * One compiler pass: stateless (one instance may serve any number of compilations), reads its
 * inputs from the {@link Compilation} and writes its product back. Errors go to the
 * compilation's diagnostics; the pipeline stops after a pass that reported any.
 */
public interface Pass {
    /** Short kebab-case name, used by {@code --dump-after}. */
    String name();

    Set<Stage> requires();

    Stage provides();

    /**
     * The products the pass reads with {@link Compilation#get}: the pipeline checks that they are
     * there before it runs the pass. Products a pass only looks for ({@link Compilation#find})
     * are not declared.
     */
    default Set<Key<?>> reads() {
        return Set.of();
    }

    void run(Compilation c);
}
