package io.tileseeder.adapters.kafka;

import io.tileseeder.message.Messages;
import io.tileseeder.message.TaskResult;
import io.tileseeder.port.ResultSink;
import java.util.List;

/**
 * Reports finished tasks on a Kafka topic (key: the job id, so one job's results keep their
 * order in one partition; value: {@link Messages#toJson} of the {@link TaskResult}). {@link #publish} returns only
 * once the broker acknowledged the result (idempotent producer, acks=all): the worker accepts the task after it,
 * and a failure or timeout throws, so the worker releases the task and it is done again.
 *
 * <pre>{@code
 * try (KafkaResultSink results = new KafkaResultSink(AckedProducer.Config.of("kafka:9092", "seeder.task-results"))) {
 *     results.publish(TaskResult.succeeded(task, counts));
 * }
 * }</pre>
 */
public final class KafkaResultSink implements ResultSink, AutoCloseable {

    private final AckedProducer producer;

    /** Creates the topic if it is missing and connects. */
    public KafkaResultSink(AckedProducer.Config config) {
        this.producer = new AckedProducer(config);
    }

    public AckedProducer.Config config() {
        return producer.config();
    }

    /** @throws org.apache.kafka.common.KafkaException naming the cause if the broker did not acknowledge in time */
    @Override
    public void publish(TaskResult result) throws InterruptedException {
        producer.send(result.jobId(), Messages.toJson(result), List.of(),
                "result of task " + result.jobId() + "#" + result.seq());
    }

    @Override
    public void close() {
        producer.close();
    }
}
