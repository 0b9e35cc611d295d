package io.tileseeder.adapters.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.adapters.TaskQueueContract;
import io.tileseeder.port.TaskDelivery;
import io.tileseeder.port.TaskQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The embedded mode's queue, held to the same contract as the Kafka one. */
class InMemoryTaskQueueTest extends TaskQueueContract {

    @Override
    protected TaskQueue newQueue() {
        return new InMemoryTaskQueue(64, 16);
    }

    /** One process: the second consumer is the same queue, polled from another thread. */
    @Override
    protected TaskQueue secondConsumer() {
        return queue;
    }

    /**
     * Tasks that keep failing hold their slots through their backoffs: with every slot held, no new task is
     * delivered, and every release is taken, however many tasks fail how often (before, the released tasks piled up
     * beside new deliveries until a release threw, and the embedded worker stopped with its job unfinished).
     */
    @Test
    void tasksThatKeepFailingHoldTheirSlotsAndEveryReleaseIsTaken() throws Exception {
        InMemoryTaskQueue small = new InMemoryTaskQueue(64, 3);
        for (int seq = 0; seq < 10; seq++) {
            assertThat(small.offer(task(seq), Duration.ofSeconds(1))).isTrue();
        }
        Set<Long> rejected = new HashSet<>();
        Set<Long> out = new HashSet<>();
        List<TaskDelivery> held = new ArrayList<>();
        while (rejected.size() < 10) {
            Optional<TaskDelivery> taken = small.poll(Duration.ofMillis(50));
            if (taken.isPresent()) {
                held.add(taken.get());
                out.add(taken.get().task().seq());
            }
            assertThat(out.size() - rejected.size()).as("tasks out or waiting to be delivered again")
                    .isLessThanOrEqualTo(3);
            if (taken.isEmpty() || held.size() == 3) {
                for (TaskDelivery delivery : held) {
                    if (delivery.deliveryCount() >= 3) {
                        delivery.reject();
                        rejected.add(delivery.task().seq());
                    } else {
                        delivery.release();
                    }
                }
                held.clear();
            }
        }
        assertThat(small.size()).isZero();
    }

    @Test
    void withEverySlotHeldNoNewTaskIsDeliveredUntilAVerdict() throws Exception {
        InMemoryTaskQueue small = new InMemoryTaskQueue(64, 2);
        for (int seq = 0; seq < 3; seq++) {
            small.offer(task(seq), Duration.ofSeconds(1));
        }
        TaskDelivery first = small.poll(Duration.ofSeconds(1)).orElseThrow();
        TaskDelivery second = small.poll(Duration.ofSeconds(1)).orElseThrow();
        second.release();

        TaskDelivery again = small.poll(Duration.ofSeconds(5)).orElseThrow();
        assertThat(again.task().seq()).as("the released task, after its backoff, not the new one")
                .isEqualTo(second.task().seq());
        assertThat(again.deliveryCount()).isEqualTo(2);
        assertThat(small.poll(Duration.ofMillis(200))).as("both slots held").isEmpty();

        first.accept();
        assertThat(small.poll(Duration.ofSeconds(1)).orElseThrow().task().seq()).isEqualTo(2);
    }
}
