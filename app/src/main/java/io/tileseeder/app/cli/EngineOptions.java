package io.tileseeder.app.cli;

import io.tileseeder.app.embedded.EngineSettings;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options shared by the commands that run the embedded engine. */
final class EngineOptions {

    @Option(names = {"--store", "--out"}, paramLabel = "DIR|s3://BUCKET/PREFIX",
            description = "Where tiles go, as .../{layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}: a folder, or an S3 bucket "
                    + "and prefix (endpoint and credentials from SEEDER_S3_ENDPOINT, SEEDER_S3_ACCESS_KEY, "
                    + "SEEDER_S3_SECRET_KEY). Default: the setting seeder.store.path, 'tiles' unless configured.")
    String out;

    @Option(names = "--layers", paramLabel = "FILE",
            description = "Layer configuration (YAML); default: the bundled 'world' layer.")
    Path layers;

    @Option(names = "--threads", paramLabel = "N",
            description = "Metatiles rendered at once (default: 2 x the cores this JVM sees).")
    Integer threads;

    EngineSettings apply(EngineSettings base) {
        EngineSettings settings = out == null ? base : base.withStore(out);
        if (layers != null) {
            settings = settings.withLayersFile(Optional.of(layers));
        }
        if (threads != null) {
            if (threads < 1) {
                throw new IllegalArgumentException("--threads must be at least 1, got " + threads);
            }
            settings = settings.withWorkerThreads(threads);
        }
        return settings;
    }
}
