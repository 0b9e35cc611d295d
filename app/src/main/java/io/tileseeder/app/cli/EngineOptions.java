package io.tileseeder.app.cli;

import io.tileseeder.port.Layout;
import io.tileseeder.runtime.settings.Settings.StoreSettings;
import io.tileseeder.runtime.settings.Settings.WorkerSettings;
import io.tileseeder.runtime.settings.Settings;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options shared by the commands that run the embedded engine. */
final class EngineOptions {

    @Option(names = {"--store", "--out"},
            paramLabel = "DIR|FILE.mbtiles|FILE.gpkg|s3://BUCKET/PREFIX|az://CONTAINER/PREFIX|gs://BUCKET/PREFIX",
            description = "Where tiles go, named as --layout says: a folder; an S3 bucket and prefix (endpoint and "
                    + "credentials from SEEDER_S3_ENDPOINT, SEEDER_S3_ACCESS_KEY, SEEDER_S3_SECRET_KEY); an Azure "
                    + "container (SEEDER_AZURE_CONNECTION_STRING, or SEEDER_AZURE_ENDPOINT with a key or SAS token); "
                    + "a Google Cloud Storage bucket (the Application Default Credentials, or "
                    + "SEEDER_GCS_CREDENTIALS_FILE; SEEDER_GCS_ENDPOINT for an emulator); or an MBTiles file (one layer, WebMercatorQuad, one format) or a "
                    + "GeoPackage (a tile pyramid per layer and quad set). Default: "
                    + "the setting seeder.store.path, 'tiles' unless configured.")
    String out;

    @Option(names = "--layout", paramLabel = "xyz|tms|wmts|quadkey",
            description = "How a folder or an object store names the tiles: xyz ({layer}/{tileMatrixSet}/{z}/{x}/{y}), "
                    + "tms (the same, row 0 at the bottom), wmts ({layer}/default/{tileMatrixSet}/{z}/{y}/{x}) or "
                    + "quadkey (Bing's keys, MapProxy's layout). Default: the setting seeder.store.layout, xyz unless "
                    + "configured.")
    String layout;

    @Option(names = "--layers", paramLabel = "FILE",
            description = "Layer configuration (YAML); default: the bundled 'world' layer.")
    Path layers;

    @Option(names = "--threads", paramLabel = "N",
            description = "Metatiles rendered at once (default: 2 x the cores this JVM sees).")
    Integer threads;

    /**
     * The store in the layout a {@code --layout} option names, or as it is when the option was left out (null).
     *
     * @throws IllegalArgumentException naming the option and the layouts there are
     */
    static StoreSettings withLayout(StoreSettings store, String layout) {
        if (layout == null) {
            return store;
        }
        try {
            return store.withLayout(Layout.parse(layout));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--layout: " + e.getMessage(), e);
        }
    }

    /** {@code base} with what the options name instead. */
    Settings apply(Settings base) {
        if (threads != null && threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, got " + threads);
        }
        WorkerSettings workers = base.workers();
        if (threads != null) {
            workers = new WorkerSettings(threads, workers.storeThreads(), workers.maxDeliveries(), workers.lockWait(),
                    workers.drainTimeout(), workers.wmsRequestsPerUpstream(),
                    workers.wmsClusterRequestsPerUpstream(), workers.wmsAdaptive());
        }
        StoreSettings store = out == null ? base.store() : base.storedAt(out).store();
        store = withLayout(store, layout);
        return new Settings(store,
                layers == null ? base.layersFile() : Optional.of(layers), base.jobs(), workers,
                base.outageBudget());
    }
}
