package io.tileseeder.workerapp;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.tileseeder.runtime.SeederConfig;
import io.tileseeder.runtime.worker.RunningWorker;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A worker of the distributed mode, as its image runs it: takes metatile tasks from Kafka, renders them and stores
 * the tiles until stopped (SIGTERM drains it, see {@link RunningWorker}). Configured by its settings only
 * ({@code SEEDER_*}, see the manual's Settings page); health and metrics on the management port.
 */
@QuarkusMain
public class WorkerMain implements QuarkusApplication {

    /** As the seeder command line's: a setting or an argument is wrong. */
    static final int USAGE = 1;

    private final SeederConfig config;
    private final RunningWorker worker;

    public WorkerMain(SeederConfig config, RunningWorker worker) {
        this.config = config;
        this.worker = worker;
    }

    @Override
    public int run(String... args) {
        if (args.length > 0) {
            System.err.println("error: the worker takes no arguments (got '" + String.join(" ", args) + "'): it is "
                    + "configured by its settings, SEEDER_KAFKA_BOOTSTRAP, SEEDER_REDIS_URL, SEEDER_STORE_PATH …");
            return USAGE;
        }
        if (config.mode() != SeederConfig.Mode.DISTRIBUTED) {
            System.err.println("error: the worker runs in the distributed mode only: set SEEDER_MODE=distributed");
            return USAGE;
        }
        try {
            worker.start();
        } catch (RuntimeException e) {
            System.err.println("error: " + e.getMessage());
            return USAGE;
        }
        int port = ConfigProvider.getConfig().getValue("quarkus.management.port", Integer.class);
        System.out.printf("Tile Seeder worker running (health and metrics on port %d)%n", port);
        System.out.flush();
        Quarkus.waitForExit();
        return 0;
    }
}
