package dev.nunac.fuzz;

import java.util.List;

/**
 * One generated input: which seed file of the entry point it starts from, the mutations applied
 * to it, and a choice among the entry point's command lines ({@code variant}). The command-line
 * entry point uses {@code args} instead.
 */
record FuzzCase(int seed, List<Mutation> mutations, int variant, List<String> args) {
    @Override
    public String toString() {
        return args.isEmpty() ? "seed " + seed + ", variant " + variant + ", mutations " + mutations : "args " + args;
    }
}
