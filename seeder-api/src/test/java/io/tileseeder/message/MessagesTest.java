package io.tileseeder.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.job.Fixtures;
import io.tileseeder.job.JobState;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MessagesTest {

    private static final ObjectMapper PLAIN = new ObjectMapper();

    private static final MetatileTask TASK = MetatileTask.of("job-1", 42, "world", TileFormat.PNG, Mode.SEED,
            new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 5, 1, 2, new MetatileSize(4, 4)),
            new TileRange(5, 5, 8, 7, 11), null);
    private static final TaskResult RESULT = TaskResult.succeeded(TASK, new TileCounts(10, 2, 3, 4, 1, 12345, 0));
    private static final JobEvent EVENT = new JobEvent(JobEvent.VERSION, "job-1", JobState.SUCCEEDED,
            Fixtures.SOME_INSTANT, new TileCounts(10, 2, 3, 4, 1, 12345, 0), 1, Map.of(7L, "boom"), null,
            Map.of("team", "maps"), null);

    @Test
    void enumsAreWrittenByTheirIds() throws Exception {
        JsonNode json = tree(TASK);

        assertThat(json.get("v").asInt()).isEqualTo(1);
        assertThat(json.get("tileMatrixSet").isTextual()).isTrue();
        assertThat(json.get("tileMatrixSet").asText()).isEqualTo("WebMercatorQuad");
        assertThat(json.get("format").asText()).isEqualTo("png");
        assertThat(json.get("mode").asText()).isEqualTo("seed");

        MetatileTask other = MetatileTask.of("job-2", 0, "world", TileFormat.JPEG, Mode.TRUNCATE,
                new Metatile(TileMatrixSet.WORLD_CRS84_QUAD, 0, 0, 0, new MetatileSize(2, 1)),
                new TileRange(0, 0, 0, 1, 0), null);
        JsonNode otherJson = tree(other);
        assertThat(otherJson.get("tileMatrixSet").asText()).isEqualTo("WorldCRS84Quad");
        assertThat(otherJson.get("format").asText()).isEqualTo("jpeg");
        assertThat(otherJson.get("mode").asText()).isEqualTo("truncate");
    }

    @Test
    void instantsAreIsoStringsAndNullsAreLeftOut() throws Exception {
        MetatileTask reseed = MetatileTask.of("job-1", 0, "world", TileFormat.PNG, Mode.RESEED, TASK.metatile(),
                TASK.tiles(), Fixtures.SOME_INSTANT);

        assertThat(tree(reseed).get("refreshBefore").asText()).isEqualTo("2024-05-01T12:30:00.123456789Z");
        assertThat(tree(reseed).get("mode").asText()).isEqualTo("reseed");
        assertThat(tree(TASK).has("refreshBefore")).isFalse();
        assertThat(tree(RESULT).has("error")).isFalse();
        assertThat(tree(RESULT).get("counts").has("unchanged")).as("a count a coordinator before it refuses")
                .isFalse();
        TaskResult reseeded = TaskResult.succeeded(TASK, new TileCounts(1, 0, 0, 0, 0, 10, 15));
        assertThat(tree(reseeded).get("counts").get("unchanged").asLong()).isEqualTo(15);
        assertThat(Messages.result(Messages.toJson(reseeded))).isEqualTo(reseeded);
        assertThat(tree(EVENT).get("time").asText()).isEqualTo("2024-05-01T12:30:00.123456789Z");
        assertThat(tree(EVENT).has("reason")).isFalse();
    }

    @Test
    void examplesRoundTrip() {
        assertThat(Messages.task(Messages.toJson(TASK))).isEqualTo(TASK);
        assertThat(Messages.result(Messages.toJson(RESULT))).isEqualTo(RESULT);
        assertThat(Messages.event(Messages.toJson(EVENT))).isEqualTo(EVENT);
        TaskResult failed = TaskResult.failed(TASK, TileCounts.ZERO, "renderer crashed");
        assertThat(Messages.result(Messages.toJson(failed))).isEqualTo(failed);
    }

    @Test
    void aTaskCanBeReadFromHandWrittenJson() {
        String json = """
                {"v":1,"jobId":"j","seq":3,"layer":"world","tileMatrixSet":"WorldCRS84Quad","format":"jpeg",
                 "mode":"reseed","z":2,"metatileX":1,"metatileY":0,"metatileWidth":4,"metatileHeight":4,
                 "minX":4,"minY":1,"maxX":4,"maxY":1,"refreshBefore":"2024-05-01T12:30:00Z"}
                """;

        MetatileTask task = Messages.task(json.getBytes(StandardCharsets.UTF_8));

        assertThat(task.tileMatrixSet()).isEqualTo(TileMatrixSet.WORLD_CRS84_QUAD);
        assertThat(task.format()).isEqualTo(TileFormat.JPEG);
        assertThat(task.mode()).isEqualTo(Mode.RESEED);
        assertThat(task.metatile()).isEqualTo(new Metatile(TileMatrixSet.WORLD_CRS84_QUAD, 2, 1, 0, new MetatileSize(4, 4)));
        assertThat(task.tiles()).isEqualTo(new TileRange(2, 4, 1, 4, 1));
        assertThat(task.metatileKey()).isEqualTo("world/WorldCRS84Quad/jpeg/2/1/0@4x4");
    }

    @Test
    void anUnknownSchemaVersionIsRefusedClearly() throws Exception {
        assertRefusesVersion99(TASK, Messages::task, "MetatileTask");
        assertRefusesVersion99(RESULT, Messages::result, "TaskResult");
        assertRefusesVersion99(EVENT, Messages::event, "JobEvent");
    }

    @Test
    void aMessageWithoutAVersionIsRefused() throws Exception {
        ObjectNode json = (ObjectNode) tree(TASK);
        json.remove("v");

        assertThatThrownBy(() -> Messages.task(PLAIN.writeValueAsBytes(json)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version");
    }

    @Test
    void aNewerVersionWithFieldsThisBuildDoesNotKnowIsRefusedAsAnUnknownVersion() throws Exception {
        // A v2 producer will add fields; the reader must still say "unknown version", not "unknown field".
        ObjectNode json = (ObjectNode) tree(TASK);
        json.put("v", 99);
        json.put("priority", 5);

        assertThatThrownBy(() -> Messages.task(PLAIN.writeValueAsBytes(json)))
                .hasMessageContaining("version 99");
    }

    @Test
    void anUnknownEnumIdIsRefused() throws Exception {
        assertRefusesField("tileMatrixSet", "WebMercatorQuadX");
        assertRefusesField("tileMatrixSet", "WEB_MERCATOR_QUAD");
        assertRefusesField("format", "gif");
        assertRefusesField("format", "PNG");
        assertRefusesField("mode", "delete");
    }

    @Test
    void somethingThatIsNotJsonIsRefused() {
        assertThatThrownBy(() -> Messages.task("not json".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("not a valid MetatileTask");
        assertThatThrownBy(() -> Messages.result("{\"v\":1,\"seq\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("not a valid TaskResult");
    }

    private static void assertRefusesField(String field, String value) throws Exception {
        ObjectNode json = (ObjectNode) tree(TASK);
        json.put(field, value);
        byte[] bytes = PLAIN.writeValueAsBytes(json);

        assertThatThrownBy(() -> Messages.task(bytes))
                .as("%s = %s", field, value)
                .isInstanceOf(RuntimeException.class)
                .hasMessageContaining("not a valid MetatileTask")
                .hasMessageContaining(value);
    }

    private static void assertRefusesVersion99(Object message, Function<byte[], ?> reader, String type)
            throws Exception {
        ObjectNode json = (ObjectNode) tree(message);
        json.put("v", 99);
        byte[] bytes = PLAIN.writeValueAsBytes(json);

        assertThatThrownBy(() -> reader.apply(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(type)
                .hasMessageContaining("version 99")
                .hasMessageContaining("reads version 1");
    }

    private static JsonNode tree(Object message) throws Exception {
        return PLAIN.readTree(Messages.toJson(message));
    }
}
