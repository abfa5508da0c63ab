package dev.nunac.fuzz;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators of malformed inputs: mutations of seed files, and command lines. */
final class Generators {
    private Generators() {}

    static Arbitrary<Mutation> mutation() {
        return Combinators.combine(Arbitraries.of(Mutation.Kind.class), Arbitraries.doubles().between(0, 1),
                Arbitraries.integers().between(1, 64), Arbitraries.integers().between(0, 255)).as(Mutation::new);
    }

    /** Up to three mutations of one of {@code seeds} seed files, with one of {@code variants} command lines. */
    static Arbitrary<FuzzCase> mutatedSeed(int seeds, int variants) {
        return Combinators.combine(Arbitraries.integers().between(0, seeds - 1), mutation().list().ofMinSize(1).ofMaxSize(3),
                Arbitraries.integers().between(0, variants - 1)).as((s, m, v) -> new FuzzCase(s, m, v, List.of()));
    }

    /** Command lines of up to eight tokens drawn from {@code pool}, some of them mangled. */
    static Arbitrary<FuzzCase> commandLine(List<String> pool) {
        Arbitrary<String> token = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.of(pool)),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(12).withChars("-=,.:/%\\x0123456789 ").withCharRange('a', 'z')),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(6).all()));
        return token.list().ofMaxSize(8).map(args -> new FuzzCase(0, List.of(), 0, args));
    }

    /** Valid command lines with one to three tokens replaced, deleted, duplicated or inserted from {@code pool}. */
    static Arbitrary<FuzzCase> editedCommandLine(List<List<String>> valid, List<String> pool) {
        Arbitrary<int[]> edit = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 99),
                Arbitraries.integers().between(0, pool.size() - 1)).as((k, at, tok) -> new int[] {k, at, tok});
        return Combinators.combine(Arbitraries.of(valid), edit.list().ofMinSize(1).ofMaxSize(3)).as((base, edits) -> {
            List<String> a = new java.util.ArrayList<>(base);
            for (int[] e : edits) {
                int at = a.isEmpty() ? 0 : e[1] % a.size();
                String tok = pool.get(e[2]);
                switch (e[0]) {
                    case 0 -> { if (!a.isEmpty()) a.set(at, tok); else a.add(tok); }
                    case 1 -> { if (!a.isEmpty()) a.remove(at); }
                    case 2 -> { if (!a.isEmpty()) a.add(at, a.get(at)); }
                    default -> a.add(at, tok);
                }
            }
            return new FuzzCase(0, List.of(), 0, a);
        });
    }
}
