package io.tileseeder.adapters.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Topics and share groups set up through the Admin API, for every Kafka adapter and the application: a topic must
 * exist before a consumer subscribes (or it sees it only at a metadata refresh), and a share group must be told
 * where to start before it first fetches. Each call is idempotent and waits at most 30 s for the broker.
 */
public final class KafkaTopics {

    private static final Logger LOG = Logger.getLogger(KafkaTopics.class.getName());

    private KafkaTopics() {
    }

    /** Creates the topic and makes the share group start at the earliest offset; both idempotent. */
    public static void prepareShareGroup(Admin admin, String topic, int partitions, String groupId) {
        ensureTopic(admin, topic, partitions);
        startAtEarliest(admin, groupId);
    }

    /** Creates {@code name} with {@code partitions} partitions unless it exists (then leaves it as it is). */
    public static void ensureTopic(Admin admin, String name, int partitions) {
        try {
            if (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(name)) {
                return;
            }
            admin.createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty())))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("cannot create topic " + name + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (TimeoutException e) {
            throw new KafkaException("no answer creating topic " + name + " within 30 s", e);
        }
    }

    /**
     * Sets the group config {@code share.auto.offset.reset=earliest}: a share group starts at the partitions' end
     * by default, which would skip the tasks produced before the first worker joined. Must happen before the
     * group first fetches a partition (the start offset is fixed then).
     */
    public static void startAtEarliest(Admin admin, String groupId) {
        setGroupConfig(admin, groupId, Map.of("share.auto.offset.reset", "earliest"));
    }

    /**
     * Sets the share group's session timeout ({@code share.session.timeout.ms}) and a heartbeat a quarter of it (at
     * least 1 s, {@code share.heartbeat.interval.ms}): a consumer that dies without leaving (a process killed, a
     * node lost) keeps its tasks until its session ends, 45 s by the broker's default. The brokers allow only values
     * between their {@code group.share.min.*} and {@code group.share.max.*} settings (45 s and 5 s at least by
     * default); a value they refuse is logged once and the group keeps theirs, as the queue works either way.
     */
    public static void limitSession(Admin admin, String groupId, Duration timeout) {
        Duration heartbeat = Duration.ofMillis(Math.max(1000, timeout.toMillis() / 4));
        try {
            setGroupConfig(admin, groupId, Map.of("share.session.timeout.ms", Long.toString(timeout.toMillis()),
                    "share.heartbeat.interval.ms", Long.toString(heartbeat.toMillis())));
        } catch (KafkaException e) {
            if (!(e.getCause() instanceof InvalidConfigurationException
                    || e.getCause() instanceof InvalidRequestException)) {
                throw e;
            }
            LOG.warning(() -> "Kafka refused a session timeout of " + timeout.toMillis() + " ms for share group "
                    + groupId + " (" + e.getCause().getMessage() + "): a dead worker's tasks wait for the brokers' "
                    + "session timeout instead; let the brokers allow it with group.share.min.session.timeout.ms "
                    + "and group.share.min.heartbeat.interval.ms");
        }
    }

    /** Sets the group configs {@code values} of {@code groupId}; a refusal is a KafkaException caused by the broker's. */
    private static void setGroupConfig(Admin admin, String groupId, Map<String, String> values) {
        List<AlterConfigOp> ops = values.entrySet().stream()
                .map(v -> new AlterConfigOp(new ConfigEntry(v.getKey(), v.getValue()), AlterConfigOp.OpType.SET))
                .toList();
        try {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, groupId), ops))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new KafkaException("cannot configure share group " + groupId + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (TimeoutException e) {
            throw new KafkaException("no answer configuring share group " + groupId + " within 30 s", e);
        }
    }
}
