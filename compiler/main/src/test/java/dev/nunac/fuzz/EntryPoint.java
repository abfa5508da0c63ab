package dev.nunac.fuzz;

import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitrary;

/**
 * A way into nunac that the campaign attacks: its seed inputs, the generator of cases, and the
 * command line that runs a case. {@code args} gets the mutated input's path and an output folder
 * that the command may write to and that must hold no file when the command fails.
 */
record EntryPoint(String name, List<Seed> seeds, Arbitrary<FuzzCase> cases, Args args) {
    interface Args {
        List<String> of(FuzzCase c, Path input, Path out);
    }

    /** An entry point that mutates seed files and runs one of {@code variants} command lines on them. */
    static EntryPoint mutating(String name, List<Seed> seeds, List<Args> variants) {
        return new EntryPoint(name, seeds, Generators.mutatedSeed(Math.max(1, seeds.size()), variants.size()),
                (c, in, out) -> variants.get(c.variant()).of(c, in, out));
    }
}
