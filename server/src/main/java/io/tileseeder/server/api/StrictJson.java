package io.tileseeder.server.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;

/**
 * The API reads JSON strictly, so that a client's mistake is refused instead of half-understood: nothing after the
 * value, no field twice, no field it does not know ({@code quarkus.jackson.fail-on-unknown-properties}), and every
 * value of the kind its field is documented with: no fraction where a whole number goes, no number or boolean written
 * as a string, no number or boolean where a string goes (a label's value {@code 1} is not {@code "1"}), no number for
 * true or false, and an instant only as text ({@code 2026-01-01T00:00:00Z}, not seconds since 1970).
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    private static final CoercionInputShape[] SCALARS = {CoercionInputShape.Integer, CoercionInputShape.Float,
            CoercionInputShape.Boolean};

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        for (LogicalType type : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        for (CoercionInputShape scalar : SCALARS) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(scalar, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        // Java time's deserializers take numbers as seconds (or milliseconds) since 1970 whatever the coercion
        // settings; a modifier wraps the one found for Instant, whichever module registered it and in which order.
        mapper.registerModule(new SimpleModule("strict-instants").setDeserializerModifier(
                new BeanDeserializerModifier() {
                    @Override
                    public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config,
                                                                  BeanDescription description,
                                                                  JsonDeserializer<?> deserializer) {
                        return description.getBeanClass() == Instant.class ? new TextOnly(deserializer)
                                : deserializer;
                    }
                }));
    }

    /** Reads a value from a JSON string only, as the deserializer it wraps does; refuses any other token. */
    private static final class TextOnly extends DelegatingDeserializer {

        TextOnly(JsonDeserializer<?> text) {
            super(text);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> text) {
            return new TextOnly(text);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                return context.handleUnexpectedToken(handledType(), parser);
            }
            return super.deserialize(parser, context);
        }
    }
}
