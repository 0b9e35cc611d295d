package io.tileseeder.worker.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaTaskQueue} against the real Kafka of {@code dev/services} ({@code SEEDER_KAFKA_BOOTSTRAP}): the
 * contract, then what only Kafka has to show. Every test uses its own topic and share group, deleted afterwards.
 */
class KafkaTaskQueueIT extends TaskQueueContract {

    private KafkaTaskQueue.Config config;
    private final List<KafkaTaskQueue> opened = new ArrayList<>();

    @Override
    protected TaskQueue newQueue() {
        String bootstrap = System.getenv("SEEDER_KAFKA_BOOTSTRAP");
        assertThat(bootstrap).as("SEEDER_KAFKA_BOOTSTRAP (run dev/services up and source .dev/services.env)")
                .isNotBlank();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        config = KafkaTaskQueue.Config.defaults(bootstrap)
                .withTopic("seeder-it-tasks-" + suffix)
                .withGroupId("seeder-it-workers-" + suffix)
                .withPartitions(3)
                .withMaxPollRecords(8);
        return open();
    }

    @Override
    protected TaskQueue secondConsumer() {
        return open();
    }

    private KafkaTaskQueue open() {
        KafkaTaskQueue q = new KafkaTaskQueue(config);
        opened.add(q);
        return q;
    }

    @AfterEach
    void cleanUp() throws Exception {
        opened.forEach(KafkaTaskQueue::close);
        if (config == null) {
            return;
        }
        try (Admin admin = KafkaTaskQueue.admin(config)) {
            try {
                admin.deleteShareGroups(List.of(config.groupId())).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("(cleanup) could not delete share group " + config.groupId() + ": " + e);
            }
            admin.deleteTopics(List.of(config.topic())).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void ensureTopicIsIdempotent() throws Exception {
        try (Admin admin = KafkaTaskQueue.admin(config)) {
            KafkaTaskQueue.ensureTopic(admin, config.topic(), 3);
            KafkaTaskQueue.ensureTopic(admin, config.topic(), 3);
            assertThat(admin.describeTopics(List.of(config.topic())).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(config.topic()).partitions()).hasSize(3);
        }
    }

    @Test
    void acceptedTasksLeaveNothingToDeliverInTheGroup() throws Exception {
        offerAll(9);
        List<TaskDelivery> got = take(queue, 9, TaskDelivery::accept);
        assertThat(got).hasSize(9);

        assertNothingLeftInTheGroup();
    }

    @Test
    void renewedThenAcceptedAndRejectedTasksAreSettledOnTheBroker() throws Exception {
        // The contract's quiet period is shorter than the broker's acquisition lock (30 s by default), so it
        // cannot tell a lost acknowledgement from an applied one; the group's offsets can.
        offerAll(1);
        TaskDelivery renewed = takeOne();
        renewed.renew();
        // The client hands a renewed record back to the consumer thread on a later fetch; the queue must not
        // deliver it a second time while its first delivery is still held.
        assertThat(queue.poll(Duration.ofSeconds(1))).as("a renewed task delivered again").isEmpty();
        renewed.renew();
        assertThat(queue.poll(Duration.ofMillis(500))).as("a twice-renewed task delivered again").isEmpty();
        renewed.accept();
        assertNothingLeftInTheGroup();

        assertThat(queue.offer(task(1), Duration.ofSeconds(30))).isTrue();
        TaskDelivery rejected = takeOne();
        rejected.reject();
        // Past the acquisition lock (30 s): an acknowledgement that was not applied would show as a redelivery.
        long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(35);
        while (System.nanoTime() < quietUntil) {
            assertThat(queue.poll(POLL)).as("a rejected task delivered again").isEmpty();
        }
        assertNothingMore(queue);
    }

    /** The broker's own view: no partition of the group has anything left (lag 0), acknowledged durably. */
    private void assertNothingLeftInTheGroup() throws Exception {
        try (Admin admin = KafkaTaskQueue.admin(config)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            long lag;
            do {
                Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin
                        .listShareGroupOffsets(Map.of(config.groupId(), new ListShareGroupOffsetsSpec()))
                        .partitionsToOffsetInfo(config.groupId()).get(30, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
                offsets.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
                lag = 0;
                for (Map.Entry<TopicPartition, SharePartitionOffsetInfo> e : offsets.entrySet()) {
                    long end = ends.get(e.getKey()).offset();
                    SharePartitionOffsetInfo o = e.getValue();
                    // No lag reported: a partition the group never needed to fetch (nothing in it) counts as 0.
                    lag += o == null ? end : o.lag().orElse(end == 0 ? 0 : Math.max(0, end - o.startOffset()));
                }
                if (lag != 0) Thread.sleep(250);
            } while (lag != 0 && System.nanoTime() < deadline);
            assertThat(lag).as("records of the group not yet acknowledged").isZero();
        }
    }

    @Test
    void aTaskHeldByAClosedConsumerGoesToAnother() throws Exception {
        offerAll(1);
        TaskDelivery held = takeOne();
        assertThat(held.deliveryCount()).isEqualTo(1);
        TaskQueue other = secondConsumer();

        ((KafkaTaskQueue) queue).close(); // a worker stops with a task it never finished

        List<TaskDelivery> again = take(other, 1);
        assertThat(again).hasSize(1);
        assertThat(again.getFirst().task()).isEqualTo(held.task());
        assertThat(again.getFirst().deliveryCount()).isEqualTo(2);
        again.getFirst().accept();
        assertNothingMore(other);
    }
}
