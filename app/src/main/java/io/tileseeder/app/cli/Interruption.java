package io.tileseeder.app.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM while a command runs a job in this process: the first runs the command's stop (which
 * cancels the job, so that the command ends as a cancelled job does), a second ends the process at once, with the
 * status of a process killed by that signal (128 + its number). Until {@link #close}, when the handlers in place
 * before come back.
 *
 * <p>Signal handlers rather than a shutdown hook: once the JVM shuts down, a shutdown hook can no longer choose the
 * exit status (the command's 3, not the 130 of a SIGINT), runs beside the application's own shutdown, which stops
 * the engine the job runs on, and a second Ctrl-C does not end a JVM that is running its hooks.
 */
final class Interruption implements AutoCloseable {

    private static final String[] SIGNALS = {"INT", "TERM"};

    private final Runnable stop;
    private final AtomicBoolean requested = new AtomicBoolean();
    private final Map<Signal, SignalHandler> before = new LinkedHashMap<>();

    private Interruption(Runnable stop) {
        this.stop = stop;
    }

    /** Handles SIGINT and SIGTERM by {@code stop} until closed; a signal this JVM does not let it handle is left. */
    static Interruption onSignals(Runnable stop) {
        Interruption interruption = new Interruption(stop);
        for (String name : SIGNALS) {
            try {
                Signal signal = new Signal(name);
                interruption.before.put(signal, Signal.handle(signal, interruption::signalled));
            } catch (IllegalArgumentException e) {
                // Reserved by the JVM here (-Xrs, or a platform without it): the default stays.
            }
        }
        return interruption;
    }

    /** What a handled signal does: the first runs the stop, a later one ends the process at once. */
    void signalled(Signal signal) {
        if (requested.compareAndSet(false, true)) {
            stop.run();
        } else {
            Runtime.getRuntime().halt(128 + signal.getNumber());
        }
    }

    /** Whether a signal asked the command to stop. */
    boolean requested() {
        return requested.get();
    }

    @Override
    public void close() {
        before.forEach(Signal::handle);
    }
}
