package io.tileseeder.app.cli;

import io.quarkus.runtime.Quarkus;
import io.tileseeder.layer.LayerConfigException;
import io.tileseeder.runtime.worker.RunningWorker;
import io.tileseeder.server.Engines;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code seeder worker}: a worker process of the distributed mode. */
@Command(name = "worker", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Runs a worker of the distributed mode until stopped: takes metatile tasks from Kafka, "
                + "renders them and stores the tiles. Needs SEEDER_MODE=distributed, SEEDER_KAFKA_BOOTSTRAP, "
                + "SEEDER_REDIS_URL and a store (--store s3://bucket/prefix with SEEDER_S3_*, az://container/prefix "
                + "with SEEDER_AZURE_*, gs://bucket/prefix with SEEDER_GCS_*, or a folder every worker shares).",
                "Health: /q/health; metrics: /q/metrics on --port, its management interface; it serves no API."})
final class WorkerCommand implements Callable<Integer> {

    private final Engines engines;
    private final RunningWorker worker;

    @Spec
    CommandSpec spec;

    @Mixin
    EngineOptions engine;

    @Option(names = "--port", defaultValue = "8081",
            description = "HTTP port of health and metrics on all interfaces (default: ${DEFAULT-VALUE}).")
    int port;

    WorkerCommand(Engines engines, RunningWorker worker) {
        this.engines = engines;
        this.worker = worker;
    }

    @Override
    public Integer call() {
        if (!HttpServer.listeningOn("worker", OptionalInt.empty(), port, spec.commandLine().getErr())) {
            return ExitCodes.USAGE;
        }
        if (!engines.distributed()) {
            spec.commandLine().getErr().println("error: 'seeder worker' runs in the distributed mode only: set "
                    + "SEEDER_MODE=distributed (for one process with its own workers, use 'seeder serve')");
            return ExitCodes.USAGE;
        }
        try {
            worker.start(engine.apply(engines.settings()));
        } catch (LayerConfigException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        spec.commandLine().getOut().printf("Tile Seeder worker running (health and metrics on port %d)%n", port);
        spec.commandLine().getOut().flush();
        Quarkus.waitForExit();
        return 0;
    }
}
