package dev.nunac.pass;

import java.util.EnumSet;
import java.util.Set;

/** A pass whose name and stages are fixed at construction, so each pass only writes {@link #run}. */
public abstract class BasePass implements Pass {
    private final String name;
    private final Stage provides;
    private final Set<Stage> requires;

    protected BasePass(String name, Stage provides, Stage required, Stage... moreRequired) {
        this.name = name;
        this.provides = provides;
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
    public final Stage provides() {
        return provides;
    }
}
