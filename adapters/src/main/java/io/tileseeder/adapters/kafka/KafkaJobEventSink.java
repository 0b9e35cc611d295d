package io.tileseeder.adapters.kafka;

import io.cloudevents.CloudEvent;
import io.cloudevents.CloudEventData;
import io.cloudevents.SpecVersion;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.format.EventDeserializationException;
import io.cloudevents.jackson.JsonFormat;
import io.tileseeder.job.JobState;
import io.tileseeder.message.JobEvent;
import io.tileseeder.message.Messages;
import io.tileseeder.port.JobEventSink;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Announces finished jobs on a Kafka topic as CloudEvents 1.0 in structured JSON mode (the
 * whole event, attributes and data, is the record value; header {@code content-type:
 * application/cloudevents+json}), key: the job id. Written with the CloudEvents Java SDK.
 *
 * <ul>
 *   <li>{@code id}: {@code <jobId>/<state>}, stable, so a consumer can drop an event it sees twice (the outbox
 *       re-sends an event whose acknowledgement was lost);</li>
 *   <li>{@code source}: {@value #DEFAULT_SOURCE} unless configured; {@code type}:
 *       {@code io.tileseeder.job.succeeded|failed|cancelled|lost}; {@code subject}: the job id; {@code time}: the
 *       event's time;</li>
 *   <li>{@code datacontenttype: application/json}, {@code data}: the {@link JobEvent} as {@link Messages} writes
 *       it (with its own schema version {@code "v"}).</li>
 * </ul>
 *
 * <p>{@link #send} returns once the broker acknowledged (idempotent producer, acks=all) and throws otherwise, so
 * the event stays in the outbox. {@link #read} turns a record value back into the {@link JobEvent}.
 */
public final class KafkaJobEventSink implements JobEventSink, AutoCloseable {

    public static final String DEFAULT_SOURCE = "urn:tile-seeder:coordinator";
    public static final String TYPE_PREFIX = "io.tileseeder.job.";
    /** The record header that tells a structured-mode CloudEvent (CloudEvents Kafka protocol binding). */
    public static final String CONTENT_TYPE_HEADER = "content-type";

    private static final JsonFormat FORMAT = new JsonFormat();

    private final AckedProducer producer;
    private final URI source;

    /** Creates the topic if it is missing and connects; {@code source} becomes every event's {@code source}. */
    public KafkaJobEventSink(AckedProducer.Config config, URI source) {
        this.source = Objects.requireNonNull(source, "source");
        this.producer = new AckedProducer(config);
    }

    public AckedProducer.Config config() {
        return producer.config();
    }

    /** @throws org.apache.kafka.common.KafkaException naming the cause if the broker did not acknowledge in time */
    @Override
    public void send(JobEvent event) throws InterruptedException {
        producer.send(event.jobId(), FORMAT.serialize(toCloudEvent(event, source)),
                List.of(new RecordHeader(CONTENT_TYPE_HEADER,
                        JsonFormat.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8))),
                "event " + id(event));
    }

    /** The CloudEvent for {@code event}; only a final state has one. */
    static CloudEvent toCloudEvent(JobEvent event, URI source) {
        if (!event.state().isFinal()) {
            throw new IllegalArgumentException("job " + event.jobId() + " is " + event.state()
                    + ": only a finished job has an event");
        }
        return CloudEventBuilder.v1()
                .withId(id(event))
                .withSource(source)
                .withType(type(event.state()))
                .withSubject(event.jobId())
                .withTime(event.time().atOffset(ZoneOffset.UTC))
                .withDataContentType("application/json")
                .withData(Messages.toJson(event))
                .build();
    }

    private static String id(JobEvent event) {
        return event.jobId() + "/" + event.state().name().toLowerCase(Locale.ROOT);
    }

    /** {@code io.tileseeder.job.succeeded} for SUCCEEDED, and so on. */
    public static String type(JobState state) {
        return TYPE_PREFIX + state.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The {@link JobEvent} in a record value this sink wrote (a structured-mode CloudEvents JSON document).
     *
     * @throws IllegalArgumentException if it is not a CloudEvents 1.0 job event with readable data
     */
    public static JobEvent read(byte[] cloudEventJson) {
        CloudEvent ce;
        try {
            ce = FORMAT.deserialize(cloudEventJson);
        } catch (EventDeserializationException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a CloudEvents JSON document: " + e.getMessage(), e);
        }
        if (ce.getSpecVersion() != SpecVersion.V1) {
            throw new IllegalArgumentException("CloudEvent " + ce.getId() + " has specversion "
                    + ce.getSpecVersion() + "; this build reads 1.0");
        }
        if (!ce.getType().startsWith(TYPE_PREFIX)) {
            throw new IllegalArgumentException("CloudEvent " + ce.getId() + " has type " + ce.getType()
                    + ", not a job event (" + TYPE_PREFIX + "*)");
        }
        CloudEventData data = ce.getData();
        if (data == null) {
            throw new IllegalArgumentException("CloudEvent " + ce.getId() + " has no data");
        }
        JobEvent event = Messages.event(data.toBytes());
        if (!ce.getType().equals(type(event.state()))) {
            throw new IllegalArgumentException("CloudEvent " + ce.getId() + " of type " + ce.getType()
                    + " carries a " + event.state() + " event");
        }
        return event;
    }

    @Override
    public void close() {
        producer.close();
    }
}
