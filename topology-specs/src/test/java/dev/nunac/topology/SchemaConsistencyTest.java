package dev.nunac.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The published schema and the loader accept the same fields, object by object. */
class SchemaConsistencyTest {
    @Test
    void schemaDefinitionsMatchTheReader() throws Exception {
        JsonNode schema;
        try (InputStream in = getClass().getResourceAsStream(TopologyResolver.RESOURCE_DIR + "schema/topology.schema.json")) {
            assertNotNull(in, "schema is packaged");
            schema = new ObjectMapper().readTree(in);
        }
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.get("$schema").asText());
        JsonNode defs = schema.get("$defs");
        for (var e : SpecFields.FIELDS.entrySet()) {
            JsonNode def = defs.get(e.getKey());
            assertNotNull(def, "$defs/" + e.getKey());
            List<String> props = new ArrayList<>();
            def.get("properties").fieldNames().forEachRemaining(props::add);
            assertEquals(new TreeSet<>(e.getValue()), new TreeSet<>(props), "$defs/" + e.getKey());
            assertEquals(false, def.get("additionalProperties").asBoolean(), "$defs/" + e.getKey() + " is closed");
        }
    }
}
