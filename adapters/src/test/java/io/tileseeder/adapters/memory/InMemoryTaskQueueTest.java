package io.tileseeder.adapters.memory;

import io.tileseeder.adapters.TaskQueueContract;
import io.tileseeder.port.TaskQueue;

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
}
