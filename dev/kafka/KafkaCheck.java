// Checks the dev Kafka started by dev/services. Not part of the project's build: dev/services runs it as a
// single-file program with the cached Kafka jars on the class path:
//   java -cp "<cache>/kafka-<version>/libs/*" dev/kafka/KafkaCheck.java ready 127.0.0.1:9092 60
//   java -cp "<cache>/kafka-<version>/libs/*" dev/kafka/KafkaCheck.java share-groups 127.0.0.1:9092
//
// ready:        waits (up to the timeout) until the broker answers a metadata request and its finalized
//               share.version feature enables share groups; so `dev/services up` returning means usable.
// share-groups: a real round trip through a share group (KIP-932): creates a topic, produces 3 records,
//               consumes them with a KafkaShareConsumer in explicit acknowledgement mode, releases one so
//               it must come back with delivery count 2 (queue semantics a classic consumer lacks),
//               accepts everything, then checks the group's committed start offset and cleans up.
// Exit code 0 when the check passed, 1 otherwise (the reason on stderr).

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class KafkaCheck {

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: KafkaCheck ready BOOTSTRAP [TIMEOUT_SECONDS] | share-groups BOOTSTRAP");
            System.exit(2);
        }
        String bootstrap = args[1];
        boolean ok = switch (args[0]) {
            case "ready" -> ready(bootstrap, args.length > 2 ? Integer.parseInt(args[2]) : 60);
            case "share-groups" -> shareGroups(bootstrap);
            default -> throw new IllegalArgumentException("unknown check: " + args[0]);
        };
        System.exit(ok ? 0 : 1);
    }

    static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // Short timeouts: `ready` retries itself, and a dead broker should fail a check quickly.
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        return Admin.create(p);
    }

    /** Retries until the broker serves metadata and has share groups enabled, or the timeout passes. */
    static boolean ready(String bootstrap, int timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        String last = "no answer";
        try (Admin admin = admin(bootstrap)) {
            while (System.nanoTime() < deadline) {
                // Each attempt waits at most 5 s, and never past the deadline.
                long wait = Math.max(200, Math.min(5000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                try {
                    String clusterId = admin.describeCluster().clusterId().get(wait, TimeUnit.MILLISECONDS);
                    int brokers = admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS).size();
                    Map<String, FinalizedVersionRange> features = admin.describeFeatures().featureMetadata()
                            .get(wait, TimeUnit.MILLISECONDS).finalizedFeatures();
                    FinalizedVersionRange share = features.get("share.version");
                    FinalizedVersionRange metadata = features.get("metadata.version");
                    if (brokers > 0 && share != null && share.maxVersionLevel() >= 1) {
                        System.out.printf("kafka ready: cluster %s, %d broker(s), share.version=%d, metadata.version level %d%n",
                                clusterId, brokers, share.maxVersionLevel(),
                                metadata == null ? -1 : metadata.maxVersionLevel());
                        return true;
                    }
                    last = "broker answers but share groups are not enabled (finalized features: " + features + ")";
                } catch (java.util.concurrent.TimeoutException e) {
                    last = "no answer to a metadata request";
                } catch (Exception e) {
                    last = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
                Thread.sleep(500);
            }
        }
        System.err.println("kafka not ready after " + timeoutSeconds + " s: " + last);
        return false;
    }

    static boolean shareGroups(String bootstrap) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String topic = "dev-share-check-" + suffix;
        String group = "dev-share-check-" + suffix;
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try {
                // A share group starts at the partition's end by default; make this one start at the beginning
                // so it sees the records produced before it joined (a group config, set through the Admin API).
                admin.incrementalAlterConfigs(Map.of(
                        new ConfigResource(ConfigResource.Type.GROUP, group),
                        List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                                AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
                produce(bootstrap, topic, 3);
                boolean ok = consume(bootstrap, topic, group, 3);
                if (ok) ok = checkGroup(admin, topic, group, 3);
                if (ok) System.out.println("share groups OK");
                return ok;
            } finally {
                try {
                    admin.deleteShareGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.err.println("(cleanup) could not delete share group " + group + ": " + e.getMessage());
                }
                admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            }
        }
    }

    static void produce(String bootstrap, String topic, int count) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "record-" + i)).get(30, TimeUnit.SECONDS);
            }
        }
        System.out.println("produced " + count + " records to " + topic);
    }

    /** Reads the records through a share group; releases record-0 once and expects it back with delivery count 2. */
    static boolean consume(String bootstrap, String topic, String group, int count) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        Map<String, Integer> accepted = new HashMap<>();
        List<String> log = new ArrayList<>();
        boolean released = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (KafkaShareConsumer<String, String> consumer =
                     new KafkaShareConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(Set.of(topic));
            while (accepted.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    short delivery = r.deliveryCount().orElse((short) -1);
                    if (r.value().equals("record-0") && !released) {
                        // RELEASE hands the record back to the group: it must be delivered again.
                        consumer.acknowledge(r, AcknowledgeType.RELEASE);
                        released = true;
                        log.add(r.value() + "@" + r.offset() + " delivery " + delivery + " -> RELEASE");
                    } else {
                        consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                        accepted.put(r.value(), (int) delivery);
                        log.add(r.value() + "@" + r.offset() + " delivery " + delivery + " -> ACCEPT");
                    }
                }
                consumer.commitSync(Duration.ofSeconds(10)).forEach((partition, error) -> error.ifPresent(e -> {
                    throw new IllegalStateException("acknowledgement of " + partition + " failed", e);
                }));
            }
        } catch (RuntimeException e) {
            System.err.println("share consumer failed: " + e);
            return false;
        }
        System.out.println("share consumer (explicit acknowledgement): " + String.join("; ", log));
        if (accepted.size() != count) {
            System.err.println("expected " + count + " records through the share group, got " + accepted.keySet());
            return false;
        }
        if (accepted.get("record-0") != 2) {
            System.err.println("the released record came back with delivery count " + accepted.get("record-0")
                    + ", expected 2");
            return false;
        }
        return true;
    }

    /**
     * The group must exist as a share group, and its offsets must show nothing left to deliver: lag 0. (Kafka
     * 4.4 may keep reporting start offset 0 with the records acknowledged in its state batches, so the start
     * offset alone proves nothing; lag counts what is neither before the start offset nor acknowledged.)
     * The share coordinator persists the acknowledgements asynchronously: poll for a few seconds.
     */
    static boolean checkGroup(Admin admin, String topic, String group, int count) throws Exception {
        ShareGroupDescription description =
                admin.describeShareGroups(List.of(group)).describedGroups().get(group).get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        SharePartitionOffsetInfo offsets;
        boolean done;
        do {
            offsets = admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo(group).get(30, TimeUnit.SECONDS).get(new TopicPartition(topic, 0));
            done = offsets != null && offsets.lag().map(lag -> lag == 0).orElse(offsets.startOffset() == count);
            if (!done) Thread.sleep(250);
        } while (!done && System.nanoTime() < deadline);
        System.out.println("share group " + group + ": state " + description.groupState()
                + ", start offset " + (offsets == null ? "none" : offsets.startOffset())
                + ", lag " + (offsets == null ? "none" : offsets.lag().map(String::valueOf).orElse("unknown")));
        if (!done) System.err.println("expected the share group to have nothing left to deliver (lag 0)");
        return done;
    }
}
