package dev.nunac.pass;

import dev.nunac.diag.Diagnostics;
import dev.nunac.ir.IrPrinter;
import dev.nunac.ir.IrVerifier;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An ordered list of passes. The order is checked when the pipeline is built, by simulating
 * the stages each pass requires and provides (like Graal's PhaseSuite); while running, the
 * products a pass reads are checked to be there before it runs, the IR and the new product are
 * verified after each pass when verification is on, and the pipeline stops after the first pass
 * that reports an error.
 */
public final class Pipeline {
    private final List<Pass> passes;

    private Pipeline(List<Pass> passes) {
        this.passes = List.copyOf(passes);
    }

    public static Pipeline of(List<Pass> passes) {
        EnumSet<Stage> have = EnumSet.of(Stage.PARSED);
        for (Pass p : passes) {
            for (Stage s : p.requires()) {
                if (!have.contains(s)) {
                    throw new IllegalArgumentException("pass '" + p.name() + "' requires stage " + s
                            + ", which no earlier pass provides");
                }
            }
            have.add(p.provides());
        }
        return new Pipeline(passes);
    }

    public static Pipeline of(Pass... passes) {
        return of(List.of(passes));
    }

    public List<Pass> passes() {
        return passes;
    }

    /** Names of the passes, for --dump-after's help and error messages. */
    public List<String> names() {
        List<String> n = new ArrayList<>();
        for (Pass p : passes) n.add(p.name());
        return n;
    }

    /** Verification between passes: on in tests and under {@code -Dnunac.verify=true}. */
    public static boolean verifyByDefault() {
        return Boolean.getBoolean("nunac.verify");
    }

    /**
     * Runs every pass in order. Returns false if a pass reported errors (the pipeline stopped).
     *
     * @param dumpAfter name of a pass whose result to hand to {@code dump}, or null
     * @param dump      receives (pass name, text) for the dump
     */
    public boolean run(Compilation c, boolean verify, String dumpAfter, BiConsumer<String, String> dump) {
        for (Pass p : passes) {
            for (Stage s : p.requires()) {
                if (!c.reached(s)) throw new IllegalStateException("pass " + p.name() + " needs " + s);
            }
            for (Key<?> k : p.reads()) {
                if (c.find(k).isEmpty()) {
                    throw new IllegalStateException("pass '" + p.name() + "' reads the product '" + k.name()
                            + "', which neither the caller nor an earlier pass put into the compilation");
                }
            }
            Object before = snapshot(c);
            long t0 = System.nanoTime();
            p.run(c);
            c.timed(p.name(), System.nanoTime() - t0);
            if (c.diagnostics().hasErrors()) return false;
            c.reach(p.provides());
            if (verify) verifyAfter(p, c, before);
            if (Objects.equals(dumpAfter, p.name()) && dump != null) dump.accept(p.name(), dumpOf(c, p));
        }
        return true;
    }

    private static Object snapshot(Compilation c) {
        return c.plan();
    }

    private static void verifyAfter(Pass p, Compilation c, Object planBefore) {
        Diagnostics d = new Diagnostics();
        if (c.plan() != planBefore) IrVerifier.verify(c.plan(), d);
        for (Object product : c.products().values()) {
            if (product instanceof Product pr) pr.verify(c, d);
        }
        if (d.hasErrors()) {
            throw new IllegalStateException("IR verification failed after pass '" + p.name() + "': "
                    + d.all().get(0).format());
        }
    }

    /** The newest product's dump, or the plan's text when the pass rewrote only the plan. */
    private static String dumpOf(Compilation c, Pass p) {
        StringBuilder sb = new StringBuilder();
        for (var e : c.products().entrySet()) {
            if (e.getValue() instanceof Product pr && e.getKey().name().equals(p.name())) sb.append(pr.dump());
        }
        return sb.length() > 0 ? sb.toString() : IrPrinter.print(c.plan());
    }
}
