package io.tileseeder.runtime.health;

import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * What this process runs, for health: set once the command has started it. The HTTP servers answer before that,
 * so health must read it without waiting for a start in progress.
 */
@Singleton
public class Running {

    private volatile Monitored monitored;

    /** Records what was started; a process starts one thing. */
    public synchronized void started(Monitored started) {
        if (monitored != null) {
            throw new IllegalStateException("the engine is running already");
        }
        monitored = started;
    }

    /** What runs; empty before it started. */
    public Optional<Monitored> monitored() {
        return Optional.ofNullable(monitored);
    }
}
