package dev.nunac.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nunac.testing.CliRun;
import dev.nunac.testing.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Emitted placement.json files conform to docs/schema/placement.schema.json. The check covers
 * the keywords the schema uses: type object/array/string/integer/number/boolean, required,
 * properties, additionalProperties false, items, enum, const, pattern, minimum.
 */
class PlacementSchemaTest {
    @TempDir
    Path tmp;

    static final List<String> TOPOLOGIES = List.of("nuna-4die", "mi300x", "b200"), POLICIES = List.of("ua", "nap+nar", "numa");

    /** Every topology under every policy. */
    static Stream<Arguments> compilations() {
        return TOPOLOGIES.stream().flatMap(topo -> POLICIES.stream().map(policy -> Arguments.of(topo, policy)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("compilations")
    void emittedPlacementsConform(String topo, String policy) throws Exception {
        List<String> errors = new ArrayList<>();
        validate(schema("placement.schema.json"), json(compile(topo, policy, "--emit", "json").resolve("placement.json")), "$", errors);
        assertTrue(errors.isEmpty(), topo + " " + policy + ": " + errors);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("compilations")
    void compactAndPerRankPlacementsConform(String topo, String policy) throws Exception {
        JsonNode schema = schema("placement-compact.schema.json");
        List<String> errors = new ArrayList<>();
        validate(schema, json(compile(topo, policy, "--only", "json", "--compact").resolve("placement.json")), "$", errors);
        Path per = compile(topo, policy, "--only", "json", "--per-rank");
        for (int k = 0; k < 4; k++) {
            JsonNode p = json(per.resolve(dev.nunac.emit.PerRankOutputs.file(k, 4, dev.nunac.emit.Output.JSON)));
            validate(schema, p, "rank " + k + " $", errors);
            if (!p.has("part")) errors.add("rank " + k + ": no part");
        }
        assertTrue(errors.isEmpty(), topo + " " + policy + ": " + errors);
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static JsonNode schema(String name) throws java.io.IOException {
        return MAPPER.readTree(TestPaths.repoRoot().resolve("docs/schema").resolve(name).toFile());
    }

    static JsonNode json(Path file) throws java.io.IOException {
        return MAPPER.readTree(Files.readString(file));
    }

    /** The 4-rank ring all-reduce compiled on {@code topo} under {@code policy} with {@code emit}'s options: its output folder. */
    private Path compile(String topo, String policy, String... emit) {
        Path out = tmp.resolve(topo + " " + policy + " " + String.join(" ", emit).replace("-", ""));
        List<String> args = new ArrayList<>(List.of(TestPaths.examples().resolve("allreduce-ring.msccl").toString(), "--topo", topo,
                "-D", "ranks=4", "--policy", policy, "-o", out.toString()));
        args.addAll(List.of(emit));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        return out;
    }

    static void validate(JsonNode s, JsonNode v, String path, List<String> errors) {
        if (s.has("const") && !s.get("const").equals(v)) errors.add(path + ": expected " + s.get("const"));
        if (s.has("enum")) {
            boolean ok = false;
            for (JsonNode e : s.get("enum")) ok |= e.equals(v);
            if (!ok) errors.add(path + ": " + v + " not in " + s.get("enum"));
        }
        // As JSON Schema has it, a pattern constrains strings only (the compact masks may be integers).
        if (s.has("pattern") && v.isTextual() && !v.asText().matches(s.get("pattern").asText())) errors.add(path + ": pattern");
        if (s.has("minimum") && v.isNumber() && v.asDouble() < s.get("minimum").asDouble()) errors.add(path + ": below minimum");
        if (s.has("type")) {
            List<String> types = new ArrayList<>();
            if (s.get("type").isArray()) s.get("type").forEach(t -> types.add(t.asText()));
            else types.add(s.get("type").asText());
            boolean ok = types.stream().anyMatch(t -> switch (t) {
                case "object" -> v.isObject();
                case "array" -> v.isArray();
                case "string" -> v.isTextual();
                case "integer" -> v.isIntegralNumber();
                case "number" -> v.isNumber();
                case "boolean" -> v.isBoolean();
                case "null" -> v.isNull();
                default -> false;
            });
            if (!ok) {
                errors.add(path + ": expected " + types + ", found " + v.getNodeType());
                return;
            }
        }
        if (v.isObject()) {
            if (s.has("required")) for (JsonNode k : s.get("required")) if (!v.has(k.asText())) errors.add(path + ": missing " + k.asText());
            JsonNode props = s.get("properties");
            for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (props != null && props.has(k)) validate(props.get(k), v.get(k), path + "." + k, errors);
                else if (s.has("additionalProperties") && !s.get("additionalProperties").asBoolean()) errors.add(path + ": unexpected " + k);
            }
        }
        if (v.isArray() && s.has("items")) {
            for (int i = 0; i < v.size(); i++) validate(s.get("items"), v.get(i), path + "[" + i + "]", errors);
        }
    }
}
