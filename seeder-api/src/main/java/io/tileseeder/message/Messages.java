package io.tileseeder.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.JobState;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;
import java.util.Optional;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/**
 * JSON for the messages on the queues. Enums are written by their public ids ({@code WebMercatorQuad},
 * {@code png}, {@code seed}); every message carries its schema version {@code "v"}, and a reader refuses a
 * version it does not know rather than guessing.
 */
public final class Messages {

    private static final ObjectMapper MAPPER = configure(new ObjectMapper());

    private Messages() {
    }

    /** Applies the message conventions (ids for enums, ISO-8601 instants, no nulls) to {@code mapper}. */
    public static ObjectMapper configure(ObjectMapper mapper) {
        SimpleModule ids = new SimpleModule("tile-seeder-ids");
        idCodec(ids, TileMatrixSet.class, TileMatrixSet::id, TileMatrixSet::byId);
        idCodec(ids, TileFormat.class, TileFormat::id, TileFormat::byId);
        idCodec(ids, Mode.class, Mode::id, Mode::byId);
        return mapper.registerModule(new JavaTimeModule())
                .registerModule(ids)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    }

    public static byte[] toJson(Object message) {
        try {
            return MAPPER.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + message.getClass().getSimpleName() + " as JSON", e);
        }
    }

    public static MetatileTask task(byte[] json) {
        return read(json, MetatileTask.class, MetatileTask.VERSION);
    }

    public static TaskResult result(byte[] json) {
        return read(json, TaskResult.class, TaskResult.VERSION);
    }

    public static JobEvent event(byte[] json) {
        return read(json, JobEvent.class, JobEvent.VERSION);
    }

    private static <T> T read(byte[] json, Class<T> type, int known) {
        try {
            JsonNode tree = MAPPER.readTree(json);
            JsonNode v = tree == null ? null : tree.get("v");
            if (v == null || !v.canConvertToInt() || v.asInt() != known) {
                throw new IllegalArgumentException(type.getSimpleName() + " has schema version "
                        + (v == null ? "(none)" : v.toString()) + "; this build reads version " + known);
            }
            return MAPPER.treeToValue(tree, type);
        } catch (IOException e) {
            throw new UncheckedIOException("not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private static <E> void idCodec(SimpleModule module, Class<E> type, Function<E, String> id,
                                                    Function<String, Optional<E>> byId) {
        module.addSerializer(type, new StdSerializer<>(type) {
            @Override
            public void serialize(E value, JsonGenerator gen,
                                  SerializerProvider provider) throws IOException {
                gen.writeString(id.apply(value));
            }
        });
        module.addDeserializer(type, new StdDeserializer<>(type) {
            @Override
            public E deserialize(JsonParser parser,
                                 DeserializationContext context) throws IOException {
                String text = parser.getValueAsString();
                return byId.apply(text).orElseThrow(() -> context.weirdStringException(text, type,
                        "unknown " + type.getSimpleName()));
            }
        });
    }
}
