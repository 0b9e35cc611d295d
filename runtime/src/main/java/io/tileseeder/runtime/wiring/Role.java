package io.tileseeder.runtime.wiring;

import java.util.List;

/** A role a process runs over its {@link Adapters}, the coordinator's or the worker's. */
public interface Role extends AutoCloseable {

    /** The role's own threads or loops that died, named for health; empty while all run. */
    List<String> deadLoops();

    /** Stops the role; its adapters stay open (their owner closes them after). */
    @Override
    void close();
}
