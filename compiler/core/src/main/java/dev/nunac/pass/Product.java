package dev.nunac.pass;

import dev.nunac.diag.Diagnostics;

/** A pass result that can check its own invariants against the compilation and print itself. */
public interface Product {
    /** Reports broken invariants; called by the pipeline after the pass that made it. */
    void verify(Compilation c, Diagnostics d);

    /** Stable text for {@code --dump-after}. */
    String dump();
}
