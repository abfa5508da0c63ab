package dev.nunac.pass;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** A pass whose name, stages and the products it reads are fixed at construction, so each pass only writes {@link #run}. */
public abstract class BasePass implements Pass {
    private final String name;
    private final Stage provides;
    private final Set<Stage> requires;
    private final Set<Key<?>> reads;

    /** {@code reads}: the products the pass gets from the compilation (empty when it reads only the plan). */
    protected BasePass(String name, Stage provides, List<Key<?>> reads, Stage required, Stage... moreRequired) {
        this.name = name;
        this.provides = provides;
        this.reads = Set.copyOf(reads);
        this.requires = Set.copyOf(EnumSet.of(required, moreRequired));
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Set<Stage> requires() {
        return requires;
    }

    @Override
    public final Set<Key<?>> reads() {
        return reads;
    }

    @Override
    public final Stage provides() {
        return provides;
    }
}
