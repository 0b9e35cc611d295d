package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.message.TaskResult;
import io.tileseeder.message.TileCounts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Task results from {@link KafkaResultSink} through Kafka to {@link KafkaResultConsumer}'s recorder, against the
 * real Kafka of {@code dev/services} ({@code SEEDER_KAFKA_BOOTSTRAP}). Each test has its own topic (one partition,
 * so the order of the results is known) and consumer group, deleted afterwards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KafkaResultsIT {

    private static final Duration ARRIVAL = Duration.ofSeconds(60);

    private String bootstrap;
    private String topic;
    private String group;
    private String jobId;
    private KafkaResultSink sink;
    private KafkaResultConsumer consumer;
    private Admin admin;

    @BeforeEach
    void setUp() {
        bootstrap = KafkaFixtures.bootstrap();
        String suffix = KafkaFixtures.uniqueSuffix();
        topic = "seeder-it-results-" + suffix;
        group = "seeder-it-coordinator-" + suffix;
        jobId = "job-" + suffix;
        sink = new KafkaResultSink(sinkConfig());
        admin = KafkaClients.admin(bootstrap, Map.of());
    }

    private AckedProducer.Config sinkConfig() {
        return AckedProducer.Config.of(bootstrap, topic).withPartitions(1)
                .withAckTimeout(Duration.ofSeconds(20));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (consumer != null) consumer.close();
        if (sink != null) sink.close();
        if (admin == null) return;
        try {
            admin.deleteConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("(cleanup) could not delete consumer group " + group + ": " + e);
        }
        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        admin.close();
    }

    private TaskResult result(long seq) {
        return seq % 3 == 0
                ? new TaskResult(TaskResult.VERSION, jobId, seq, false, new TileCounts(0, 0, 0, 0, 16, 0, 0), "boom " + seq)
                : new TaskResult(TaskResult.VERSION, jobId, seq, true, new TileCounts(10, 5, 1, 0, 0, seq * 100, 0), null);
    }

    private List<TaskResult> publish(long from, long to) throws InterruptedException {
        List<TaskResult> sent = LongStream.range(from, to).mapToObj(this::result).toList();
        for (TaskResult r : sent) {
            sink.publish(r);
        }
        return sent;
    }

    private void startConsumer(Consumer<List<TaskResult>> recorder) {
        consumer = new KafkaResultConsumer(KafkaResultConsumer.Config.of(bootstrap, topic, group)
                .withMaxBackoff(Duration.ofSeconds(1)), recorder);
        consumer.start();
    }

    /** The group's committed offset on the topic's one partition; 0 if nothing is committed. */
    private long committed() {
        try {
            Map<?, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            return offsets.values().stream().mapToLong(o -> o == null ? 0 : o.offset()).sum();
        } catch (Exception e) {
            throw new AssertionError("cannot read the committed offsets of " + group, e);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + ARRIVAL.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void publishedResultsReachTheRecorderAndAreCommitted() throws Exception {
        List<TaskResult> sent = publish(0, 50);
        List<TaskResult> recorded = Collections.synchronizedList(new ArrayList<>());

        startConsumer(recorded::addAll);

        await("50 results recorded", () -> recorded.size() >= 50);
        assertThat(recorded).containsExactlyElementsOf(sent);
        await("offsets committed up to the last result", () -> committed() == 50);
    }

    @Test
    void aRecorderThatThrowsSeesTheSameResultsAgainAndOffsetsAreCommittedOnlyAfterSuccess() throws Exception {
        List<TaskResult> sent = publish(0, 20);
        List<TaskResult> failedBatch = new ArrayList<>();
        List<TaskResult> recorded = Collections.synchronizedList(new ArrayList<>());
        List<String> committedAheadOfRecorder = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();

        startConsumer(batch -> {
            // Whatever is committed must already have been recorded successfully.
            long committed = committed();
            if (committed > recorded.size()) {
                committedAheadOfRecorder.add("committed " + committed + " with " + recorded.size() + " recorded");
            }
            if (calls.getAndIncrement() == 0) {
                failedBatch.addAll(batch);
                throw new IllegalStateException("Redis is down (test)");
            }
            recorded.addAll(batch);
        });

        await("20 results recorded", () -> recorded.size() >= 20);
        assertThat(failedBatch).as("the batch the recorder refused").isNotEmpty();
        assertThat(recorded).as("every result recorded once, the refused ones again, in order")
                .containsExactlyElementsOf(sent);
        assertThat(committedAheadOfRecorder).isEmpty();
        await("offsets committed up to the last result", () -> committed() == 20);
        assertThat(calls.get()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void anUnreadableRecordIsSkippedAndTheResultsAfterItAreRecorded() throws Exception {
        List<TaskResult> sent = new ArrayList<>(publish(0, 2));
        try (AckedProducer raw = new AckedProducer(sinkConfig())) {
            raw.send(jobId, "not json at all".getBytes(StandardCharsets.UTF_8), List.of(), "bad JSON");
            raw.send(jobId, ("{\"v\":99,\"jobId\":\"" + jobId + "\",\"seq\":5}").getBytes(StandardCharsets.UTF_8),
                    List.of(), "unknown version");
        }
        sent.addAll(publish(2, 4));
        List<TaskResult> recorded = Collections.synchronizedList(new ArrayList<>());

        startConsumer(recorded::addAll);

        await("4 results recorded", () -> recorded.size() >= 4);
        assertThat(recorded).containsExactlyElementsOf(sent);
        await("offsets committed past the unreadable records", () -> committed() == 6);
    }
}
