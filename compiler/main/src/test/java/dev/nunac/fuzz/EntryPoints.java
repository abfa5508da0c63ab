package dev.nunac.fuzz;

import dev.nunac.driver.PlanLoader;
import dev.nunac.emit.MscclXmlExporter;
import dev.nunac.ir.Limits;
import dev.nunac.testing.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The entry points of the campaign and their seeds: the DSL (the examples and the bad plans of
 * the golden tests), MSCCL-IR XML (the examples exported, and the smaller corpus files),
 * MSCCL++ JSON (the corpus plans and a small plan), topology specs (the bundled ones, loaded
 * with --topo PATH) and the command line itself. Corpus files are read in place; without the
 * corpus the other seeds remain.
 */
final class EntryPoints {
    private EntryPoints() {}

    /** Corpus files above this size are left out: the campaign wants many inputs, not big ones. */
    static final long MAX_SEED_BYTES = 64 << 10;

    static List<EntryPoint> all() {
        return List.of(dsl(), xml(), mscclpp(), topology(), commandLine(), sweep());
    }

    /**
     * Sweep specs: two small valid ones (one plan at 2 GPUs, one size; the object form with
     * parameters, granularity and layout), run whole and as a shard. The plan is named by its
     * absolute path, as the spec's folder is the campaign's.
     */
    static EntryPoint sweep() {
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString().replace("\\", "\\\\");
        List<Seed> seeds = List.of(
                new Seed("sweep-small.json", ("{\"plans\": [\"" + plan + "\"], \"gpus\": [2], \"topologies\": [\"nuna-4die\"],"
                        + " \"sizes\": [\"64KB\"], \"policies\": [\"ua\", \"auto\"]}\n").getBytes(StandardCharsets.UTF_8), "json"),
                new Seed("sweep-objects.json", ("{\"description\": \"d\", \"plans\": [{\"plan\": \"" + plan + "\", \"name\": \"ag\","
                        + " \"defines\": [{\"ranks\": 2}, {\"ranks\": 3}]}], \"topologies\": [\"mi300x\"], \"sizes\": [4096, \"1MiB\"],"
                        + " \"policies\": [\"nap+nar\"], \"nar\": \"auto\", \"layout\": \"packed\"}\n").getBytes(StandardCharsets.UTF_8), "json"));
        return EntryPoint.mutating("sweep", seeds, List.of(
                (c, in, out) -> List.of("sweep", in.toString(), "-o", out.toString(), "--quiet"),
                (c, in, out) -> List.of("sweep", in.toString(), "-o", out.toString(), "--shard", "1/2", "--quiet")));
    }

    static EntryPoint dsl() {
        List<Seed> seeds = new ArrayList<>(files(TestPaths.examples(), ".msccl"));
        seeds.addAll(files(TestPaths.moduleDir().resolve("src/test/resources/golden/bad"), ".msccl"));
        return EntryPoint.mutating("dsl", seeds, List.of(
                (c, in, out) -> List.of("check", in.toString(), "-D", "ranks=4"),
                (c, in, out) -> List.of("check", in.toString()),
                (c, in, out) -> List.of("ir", in.toString(), "-D", "ranks=2"),
                (c, in, out) -> List.of(in.toString(), "--topo", "mi300x", "-D", "ranks=2", "-o", out.toString(),
                        "--emit", "json,header,report,svg,msccl-xml,launch"),
                (c, in, out) -> List.of("export", in.toString(), "-D", "ranks=2", "-o", out.resolve("plan.xml").toString())));
    }

    static EntryPoint xml() {
        List<Seed> seeds = new ArrayList<>();
        for (Seed s : files(TestPaths.examples(), ".msccl")) {
            Path p = TestPaths.examples().resolve(s.name());
            String x = MscclXmlExporter.export(PlanLoader.load(p, Map.of("ranks", "4"), Limits.DEFAULT));
            seeds.add(new Seed(s.name() + ".xml", x.getBytes(StandardCharsets.UTF_8), "xml"));
        }
        seeds.addAll(corpus("msccl-xml", ".xml"));
        return planFormat("xml", seeds);
    }

    static EntryPoint mscclpp() {
        List<Seed> seeds = new ArrayList<>(corpus("mscclpp-json", ".json"));
        seeds.add(new Seed("small.json", SMALL_PLAN.getBytes(StandardCharsets.UTF_8), "json"));
        return planFormat("mscclpp-json", seeds);
    }

    private static EntryPoint planFormat(String name, List<Seed> seeds) {
        return EntryPoint.mutating(name, seeds, List.of(
                (c, in, out) -> List.of("check", in.toString()),
                (c, in, out) -> List.of("ir", in.toString()),
                (c, in, out) -> List.of(in.toString(), "--topo", "nuna-4die", "-o", out.toString()),
                (c, in, out) -> List.of("check", in.toString(), "--limit", "elements=3000", "--limit", "attributes=12"),
                (c, in, out) -> List.of("export", in.toString(), "-o", out.resolve("plan.xml").toString())));
    }

    static EntryPoint topology() {
        List<Seed> seeds = files(TestPaths.repoRoot().resolve("topology-specs"), ".json");
        String plan = TestPaths.examples().resolve("allgather-direct.msccl").toString();
        return EntryPoint.mutating("topology", seeds, List.of(
                (c, in, out) -> List.of("topo", "validate", in.toString()),
                (c, in, out) -> List.of("topo", "show", in.toString()),
                (c, in, out) -> List.of(plan, "-D", "ranks=2", "--topo", in.toString(), "-o", out.toString()),
                (c, in, out) -> List.of("topo", "show", "nuna-4die", "--topo-override", in.toString())));
    }

    /**
     * Command lines from a pool of commands, options and values, and valid ones edited. Commands
     * that write get {@code -o OUT} (simulate: {@code --csv OUT}) right after the command word
     * (the first value wins), so nothing lands outside the campaign's folder. {@code run} is left
     * out: it launches the runtime, whose failures exit 4.
     */
    static EntryPoint commandLine() {
        Path ex = TestPaths.examples();
        List<String> pool = List.of("compile", "check", "ir", "export", "topo", "help", "list", "show", "validate", "simulate",
                "compare", "--flit", "--sizes", "--policies", "64KB,1MiB", "auto", "256",
                "--topo", "-D", "--limit", "--emit", "--nar", "--size", "--policy", "--dump-after", "--verbose", "--help",
                "--expanded", "--topo-override", "--bogus", "-", "--", "-h", "--version",
                "mi300x", "nuna-4die", "b200", "nosuch", "ranks=4", "ranks=2", "ranks=99999999999", "ranks=-1", "ranks=",
                "=", "x=1", "steps=0", "steps=10", "input-bytes=1", "nesting=1", "loop-iterations=1", "elements=1",
                "attributes=1", "ranks=1", "threadblocks=1", "bogus=3", "json,header", "msccl-xml", "report", "svg,launch", ",", "off", "0",
                "-1", "3", "1MiB", "1e9", "99999999999999999999TB", "-5KB", "nap+nar", "ua", "numa", "check", "nar",
                ex.resolve("allgather-direct.msccl").toString(), ex.resolve("allreduce-ring.msccl").toString(),
                ex.resolve("nosuch.msccl").toString(), ex.toString(), ex.resolve("../README.md").normalize().toString(),
                TestPaths.repoRoot().resolve("topology-specs/mi300x.json").toString(), "plan.txt", "a.xml", "b.json");
        String plan = ex.resolve("allgather-direct.msccl").toString();
        List<List<String>> valid = List.of(
                List.of(plan, "--topo", "mi300x", "-D", "ranks=4", "--policy", "ua", "--nar", "off", "--size", "64KB"),
                List.of("compile", plan, "--topo", "nuna-4die", "--emit", "json,svg,launch", "--nar", "2"),
                List.of("check", plan, "-D", "ranks=8", "--limit", "steps=100000"),
                List.of("ir", plan, "-D", "ranks=2", "--verbose"),
                List.of("export", plan, "-D", "ranks=2"),
                List.of("topo", "show", "mi300x", "--expanded"),
                List.of(plan, "--topo", "mi300x", "--dump-after", "check"),
                List.of("simulate", plan, "--topo", "nuna-4die", "-D", "ranks=2", "--size", "64KB", "--nar", "2"),
                List.of("compare", plan, "--topo", "mi300x", "-D", "ranks=2", "--sizes", "4KB,64KB", "--policies", "ua,nap+nar"));
        var cases = net.jqwik.api.Arbitraries.oneOf(Generators.commandLine(pool), Generators.editedCommandLine(valid, pool));
        return new EntryPoint("command-line", List.of(), cases, (c, in, out) -> {
            List<String> a = new ArrayList<>(c.args());
            if (!a.isEmpty() && a.get(0).equals("simulate")) a.addAll(1, List.of("--csv", out.toString()));
            if (!a.isEmpty() && (a.get(0).equals("compile") || a.get(0).equals("export")
                    || !a.get(0).startsWith("-") && (a.get(0).contains(".") || a.get(0).contains("/")))) {
                a.addAll(1, List.of("-o", a.get(0).equals("export") ? out.resolve("plan.xml").toString() : out.toString()));
            }
            return a;
        });
    }

    /** A two-gpu MSCCL++ allgather: put, signal, wait. */
    static final String SMALL_PLAN = dev.nunac.testing.Plans.ONE_SIDED_ALLGATHER;

    private static List<Seed> corpus(String dir, String ext) {
        Path c = TestPaths.corpus().resolve(dir);
        if (!Files.isDirectory(c)) return List.of();
        return files(c, ext).stream().filter(s -> s.bytes().length <= MAX_SEED_BYTES).toList();
    }

    static List<Seed> files(Path dir, String ext) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Seed> out = new ArrayList<>();
            for (Path p : s.filter(f -> f.getFileName().toString().endsWith(ext)).sorted().toList()) {
                out.add(new Seed(p.getFileName().toString(), Files.readAllBytes(p), ext.substring(1)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
