package io.tileseeder.adapters.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.LoggedRecords;
import io.tileseeder.adapters.TaskQueueContract;
import io.tileseeder.port.ReleaseBackoff;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
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
        config = KafkaTaskQueue.Config.of(bootstrap, "seeder-it-tasks-" + suffix, "seeder-it-workers-" + suffix, 3)
                .withPartitions(3)
                .withMaxPollRecords(8)
                .withSessionTimeout(Duration.ofSeconds(4));
        return open();
    }

    @Override
    protected TaskQueue secondConsumer() {
        return open();
    }

    private Admin admin() {
        return KafkaClients.admin(config.bootstrapServers(), config.clientProperties());
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
        try (Admin admin = admin()) {
            try {
                admin.deleteShareGroups(List.of(config.groupId())).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("(cleanup) could not delete share group " + config.groupId() + ": " + e);
            }
            admin.deleteTopics(List.of(config.topic())).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theGroupsSessionIsSetAndOneTheBrokersRefuseIsAWarningNotAFailure() throws Exception {
        ((KafkaTaskQueue) queue).close(); // its consumers would take the task below
        KafkaTaskQueue limited = new KafkaTaskQueue(config.withSessionTimeout(Duration.ofSeconds(8)));
        opened.add(limited);
        limited.close();
        assertThat(groupConfig("share.session.timeout.ms")).isEqualTo("8000");
        assertThat(groupConfig("share.heartbeat.interval.ms")).isEqualTo("2000");

        // Below the brokers' group.share.min.session.timeout.ms (2 s in dev/services).
        try (LoggedRecords logged = LoggedRecords.of(KafkaTopics.class)) {
            KafkaTaskQueue refused = new KafkaTaskQueue(config.withSessionTimeout(Duration.ofMillis(500)));
            opened.add(refused);
            assertThat(logged.records()).singleElement().satisfies(r -> assertThat(r.getMessage())
                    .contains("refused a session timeout of 500 ms", config.groupId(),
                            "group.share.min.session.timeout.ms"));
            assertThat(groupConfig("share.session.timeout.ms")).as("kept").isEqualTo("8000");
            assertThat(refused.offer(task(1), Duration.ofSeconds(5))).isTrue();
            refused.flush();
            List<TaskDelivery> got = take(refused, 1, TaskDelivery::accept);
            assertThat(got).singleElement().satisfies(d -> assertThat(d.task().seq()).isEqualTo(1));
        }
    }

    private String groupConfig(String name) throws Exception {
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, config.groupId());
        try (Admin admin = admin()) {
            return admin.describeConfigs(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group).get(name).value();
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
        // cannot tell a lost acknowledgement from an applied one; the group's offsets can: a record whose
        // acknowledgement was lost stays acquired, and the group's start offset does not pass it.
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
        assertNothingLeftInTheGroup();
        assertNothingMore(queue);
    }

    /** The broker's own view: no partition of the group has anything left (lag 0), acknowledged durably. */
    private void assertNothingLeftInTheGroup() throws Exception {
        try (Admin admin = admin()) {
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
        // At least the second delivery: one of the other queue's three consumers may acquire the record first and
        // release it (its hand-off taken), and the broker counts every acquisition.
        assertThat(again.getFirst().deliveryCount()).isGreaterThanOrEqualTo(2);
        again.getFirst().accept();
        assertNothingMore(other);
    }

    @Test
    void flushMakesEveryOfferedTaskDeliverable() throws Exception {
        int count = 500;
        for (int i = 0; i < count; i++) {
            assertThat(queue.offer(task(i), Duration.ofSeconds(30))).as("offer of task %d", i).isTrue();
        }
        queue.flush();

        // Durable before anyone consumes: the topic already holds every task.
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            for (int p = 0; p < config.partitions(); p++) {
                latest.put(new TopicPartition(config.topic(), p), OffsetSpec.latest());
            }
            long produced = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
            assertThat(produced).as("records in the topic after flush").isEqualTo(count);
        }
        List<TaskDelivery> got = take(queue, count, TaskDelivery::accept);
        assertThat(got).extracting(TaskDelivery::task)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, count).mapToObj(this::task).toList());
        assertNothingLeftInTheGroup();
    }

    @Test
    void aReleasedTaskComesBackNoSoonerThanItsBackoff() throws Exception {
        offerAll(1);
        TaskDelivery delivery = takeOne();
        for (int attempt = 1; attempt <= 3; attempt++) {
            assertThat(delivery.deliveryCount()).isEqualTo(attempt);
            Duration backoff = ReleaseBackoff.after(attempt);
            long releasedAt = System.nanoTime();
            delivery.release();
            delivery = takeOne();
            Duration waited = Duration.ofNanos(System.nanoTime() - releasedAt);
            assertThat(delivery.task()).isEqualTo(task(0));
            assertThat(waited).as("time to redelivery after release number %d", attempt)
                    .isGreaterThanOrEqualTo(backoff);
        }
        assertThat(ReleaseBackoff.after(3)).isEqualTo(Duration.ofMillis(400));
        delivery.accept();
        assertNothingMore(queue);
    }

    @Test
    void severalConsumersInOneInstanceTogetherDeliverEveryTaskOnce() throws Exception {
        assertThat(config.consumers()).as("consumers in the instance under test").isEqualTo(3);
        int count = 90;
        offerAll(count);
        queue.flush();

        // More tasks out at once, without verdicts, than one consumer may hold (maxPollRecords): only several
        // consumers fetching side by side can hand these out.
        int beyondOneConsumer = config.maxPollRecords() + 1;
        List<TaskDelivery> heldAtOnce = take(queue, beyondOneConsumer);
        assertThat(heldAtOnce).as("deliveries held at once").hasSize(beyondOneConsumer);
        heldAtOnce.forEach(TaskDelivery::accept);
        List<TaskDelivery> rest = take(queue, count - beyondOneConsumer, TaskDelivery::accept);

        List<TaskDelivery> all = new ArrayList<>(heldAtOnce);
        all.addAll(rest);
        assertThat(all).extracting(TaskDelivery::task).as("every task delivered exactly once")
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, count).mapToObj(this::task).toList());
        assertThat(all).extracting(TaskDelivery::deliveryCount).containsOnly(1);
        assertNothingMore(queue);
        assertNothingLeftInTheGroup();
    }

    /**
     * A task released again and again, by its worker and by consumers closing with it, well past the broker's
     * delivery limit, at which a share group archives a released record: it keeps coming, each delivery counted, and
     * is settled when accepted. A queue closing may acquire the record once more before it gives it back (one of
     * its consumers polls while another releases): that delivery counts too, so each count is only known to be
     * higher than the one before.
     */
    @Test
    void aTaskReleasedPastTheGroupsDeliveryLimitIsStillDelivered() throws Exception {
        int limit = brokerConfig("group.share.delivery.count.limit");
        offerAll(1);
        TaskDelivery delivery = takeOne();
        assertThat(delivery.deliveryCount()).as("first delivery count").isEqualTo(1);
        for (int round = 1; delivery.deliveryCount() <= limit + 1; round++) {
            int before = delivery.deliveryCount();
            assertThat(delivery.task()).isEqualTo(task(0));
            if (round % 2 == 0) {
                delivery.release();
                delivery = takeOne();
            } else {
                ((KafkaTaskQueue) queue).close(); // gives back what it holds
                queue = secondConsumer();
                delivery = takeOne();
            }
            assertThat(delivery.deliveryCount()).as("delivery count after %d", before).isGreaterThan(before);
        }
        assertThat(delivery.task()).isEqualTo(task(0));
        delivery.accept();
        assertNothingLeftInTheGroup();
        assertNothingMore(queue);
    }

    private int brokerConfig(String name) throws Exception {
        try (Admin admin = admin()) {
            String node = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).iterator().next().idString();
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node);
            return Integer.parseInt(admin.describeConfigs(List.of(broker)).all().get(30, TimeUnit.SECONDS)
                    .get(broker).get(name).value());
        }
    }

    /**
     * A worker renews its task every half second, as a slow metatile does, while dev/services' broker is stopped
     * and started again. The broker forgets what was acquired, so the renewal under way fails and the record is
     * delivered again, to any of the instance's consumers: it is joined to the delivery still being worked on, and
     * the task reaches the worker once and is settled on the broker.
     */
    @Test
    void aTaskRenewedThroughABrokerRestartIsProcessedOnce() throws Exception {
        offerAll(1);
        TaskDelivery working = takeOne();
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();
        try (LoggedRecords logged = LoggedRecords.of(KafkaTaskConsumers.class)) {
            heartbeat.scheduleAtFixedRate(working::renew, 0, 500, TimeUnit.MILLISECONDS);
            DevKafka.stop();
            DevKafka.start(Path.of("target/kafka-restart.log"));

            List<TaskDelivery> during = new ArrayList<>();
            long deadline = System.nanoTime() + ARRIVAL.toNanos();
            while (messages(logged).noneMatch(m -> m.endsWith("joined to it")) && System.nanoTime() < deadline) {
                queue.poll(POLL).ifPresent(during::add);
            }
            heartbeat.shutdownNow();
            working.accept();

            assertThat(messages(logged).toList()).as("what the consumers logged")
                    .anyMatch(m -> m.equals(working + " was delivered again while its task is still being worked on;"
                            + " joined to it"))
                    .noneMatch(m -> m.startsWith("cannot acknowledge"));
            assertThat(during).as("deliveries while the first was still being worked on").isEmpty();
            assertNothingLeftInTheGroup();
            assertNothingMore(queue);
        } finally {
            heartbeat.shutdownNow();
        }
    }

    private static java.util.stream.Stream<String> messages(LoggedRecords logged) {
        return logged.records().stream().map(java.util.logging.LogRecord::getMessage);
    }
}
