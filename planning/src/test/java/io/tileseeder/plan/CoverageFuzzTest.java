package io.tileseeder.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.Gen;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.ShowFailingCase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile coverages and tile lists: valid ones mutated at random (a value of another type, a member dropped, an array
 * emptied or nested once more, a number pushed out of range). Each is either accepted or refused with one error on
 * the coverage or tiles field, in words rather than a Java exception's.
 */
@ExtendWith(ShowFailingCase.class)
class CoverageFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String FEATURES = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Polygon",
                "coordinates": [[[10, 10], [20, 10], [20, 20], [10, 20], [10, 10]], [[12, 12], [14, 12], [14, 14], [12, 12]]]}},
              {"type": "Feature", "properties": null, "geometry": {"type": "MultiPolygon",
                "coordinates": [[[[-5, -5], [0, -5], [0, 0], [-5, -5]]]]}}]}""";

    static Stream<Named<JsonNode>> aMutatedCoverageIsAcceptedOrRefusedInWords() {
        return Gen.cases(0xC0FE_0001L, 400, g -> {
            JsonNode mutated = mutate(g, read(FEATURES), g.between(1, 3));
            return Named.of(mutated.toString().length() > 300 ? mutated.toString().substring(0, 300) : mutated.toString(),
                    mutated);
        });
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void aMutatedCoverageIsAcceptedOrRefusedInWords(JsonNode coverage) {
        assertAcceptedOrRefusedInWords(new JobRequest("world", null, new JobRequest.Zoom(0, 5), null, null, null,
                null, null, null, null, coverage, null), "coverage");
    }

    static Stream<Named<JsonNode>> aMutatedTileListIsAcceptedOrRefusedInWords() {
        return Gen.cases(0xC0FE_0002L, 300, g -> {
            JsonNode list = g.chance(0.5) ? NODES.textNode("3/1/2\n4/5/6\n0/0/0") : read("[\"3/1/2\", \"4/5/6\"]");
            JsonNode mutated = mutate(g, list, g.between(1, 2));
            return Named.of(mutated.toString(), mutated);
        });
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void aMutatedTileListIsAcceptedOrRefusedInWords(JsonNode tiles) {
        assertAcceptedOrRefusedInWords(new JobRequest("world", null, new JobRequest.Zoom(0, 5), null, null, null,
                null, null, null, null, null, tiles), "tiles");
    }

    private static void assertAcceptedOrRefusedInWords(JobRequest request, String field) {
        JobSpecValidator validator = new JobSpecValidator(Fixtures.CATALOG, Fixtures.LIMITS);
        Throwable thrown = catchThrowable(() -> validator.validate(request));
        if (thrown == null) {
            return;
        }
        assertThat(thrown).isInstanceOf(InvalidJobException.class);
        List<FieldError> errors = ((InvalidJobException) thrown).errors();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).field()).startsWith(field);
        assertThat(errors.get(0).reason()).doesNotContain("java.", "Exception", "null");
    }

    private static JsonNode mutate(Gen g, JsonNode root, int times) {
        JsonNode node = root;
        for (int i = 0; i < times; i++) {
            node = mutateOnce(g, node);
        }
        return node;
    }

    /** Replaces one node somewhere in the tree (the root included) by a variation of it. */
    private static JsonNode mutateOnce(Gen g, JsonNode root) {
        List<JsonNode> parents = new ArrayList<>();
        collectContainers(root, parents);
        if (parents.isEmpty() || g.chance(0.05)) {
            return variation(g, root);
        }
        JsonNode parent = g.oneOf(parents);
        if (parent instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = g.oneOf(names);
            if (g.chance(0.2)) {
                object.remove(name);
            } else {
                object.set(name, variation(g, object.get(name)));
            }
        } else {
            ArrayNode array = (ArrayNode) parent;
            int index = g.between(0, array.size() - 1);
            if (g.chance(0.2)) {
                array.remove(index);
            } else {
                array.set(index, variation(g, array.get(index)));
            }
        }
        return root;
    }

    private static JsonNode variation(Gen g, JsonNode node) {
        return switch (g.between(0, 7)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.textNode(g.oneOf("", "Polygon", "Point", "LineString", "GeometryCollection", "1e999",
                    "14/1/1", "x", "Feature"));
            case 2 -> NODES.numberNode(g.oneOf(0.0, -1.0, 1e300, -181.0, 91.0, 3.5, 1e-320));
            case 3 -> NODES.booleanNode(g.chance(0.5));
            case 4 -> NODES.arrayNode();
            case 5 -> NODES.objectNode();
            case 6 -> NODES.arrayNode().add(node.deepCopy());
            default -> node.isArray() && node.size() > 0 ? node.get(0).deepCopy() : node.deepCopy();
        };
    }

    private static void collectContainers(JsonNode node, List<JsonNode> into) {
        if (node.isContainerNode() && node.size() > 0) {
            into.add(node);
            node.forEach(child -> collectContainers(child, into));
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
