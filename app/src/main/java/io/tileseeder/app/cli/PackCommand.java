package io.tileseeder.app.cli;

import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.ArchivePacking;
import io.tileseeder.runtime.wiring.Stores;
import io.tileseeder.server.Engines;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code seeder pack}: packs a finished cache of Web Mercator tiles into one PMTiles archive. */
@Command(name = "pack", mixinStandardHelpOptions = true, exitCodeOnInvalidInput = ExitCodes.USAGE,
        description = {"Packs a finished cache of Web Mercator tiles into one PMTiles v3 archive: tiles in Hilbert "
                + "order, identical tiles stored once, runs of repeats in one entry.",
                "The archive is written beside its target and renamed onto it once it is on disk, or uploaded to S3 in "
                        + "parts that show under its name only once all are in: a pack that stops half way leaves no "
                        + "archive under the target's name.",
                "Exit status: 0 packed, 1 bad usage, 2 failed."})
final class PackCommand implements Callable<Integer> {

    private final Engines engines;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CACHE",
            description = "The cache's folder: {store}/{layer}/WebMercatorQuad (then a folder per dimension value), "
                    + "a folder or s3://BUCKET/PREFIX/..., az://CONTAINER/PREFIX/..., gs://BUCKET/PREFIX/... (the "
                    + "clouds' settings as for seed).")
    String cache;

    @Parameters(index = "1", paramLabel = "ARCHIVE",
            description = "The archive to write, ending in .pmtiles: a file, or an object in a bucket "
                    + "(s3://, az://, gs://BUCKET/PREFIX/NAME.pmtiles: written in --work-dir first, then uploaded in "
                    + "parts).")
    String archive;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where an archive for a bucket is written before it is uploaded (default: the system's temporary "
                    + "folder); it needs the archive's size free.")
    Path workDir;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "The tiles' format, when the cache holds finished tiles of several (png, jpeg, webp, ...).")
    String format;

    @Option(names = "--layout", paramLabel = "xyz|tms|wmts|quadkey",
            description = "How the store names the cache's tiles, as when it was seeded (default: the setting "
                    + "seeder.store.layout, xyz unless configured).")
    String layout;

    @Option(names = "--readers", paramLabel = "N", defaultValue = "" + ArchivePacking.READERS,
            description = "Tiles read at once, a thread each, at most " + ArchivePacking.MAX_READERS
                    + " (default: ${DEFAULT-VALUE}).")
    int readers;

    PackCommand(Engines engines) {
        this.engines = engines;
    }

    @Override
    public Integer call() throws InterruptedException {
        Settings.StoreSettings settings;
        try {
            settings = EngineOptions.withLayout(engines.settings().store(), layout);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        CacheAddress address;
        try {
            address = CacheAddress.parse(cache, settings.layout());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "CACHE: " + e.getMessage());
        }
        ArchivePacking.Target target;
        try {
            target = ArchivePacking.Target.of(archive, workDir, "ARCHIVE");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (readers < 1 || readers > ArchivePacking.MAX_READERS) {
            throw new ParameterException(spec.commandLine(), "--readers must be 1 to " + ArchivePacking.MAX_READERS
                    + ", got " + readers);
        }
        PrintWriter err = spec.commandLine().getErr();
        TileStore store;
        try {
            store = Stores.open(new Settings.StoreSettings(address.store(), settings.clouds(), settings.publicUrl(),
                    settings.layout()));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        try {
            return Packing.pack(engines.settings(), store, address.cache(), format, readers, target,
                    spec.commandLine().getOut(), err);
        } finally {
            Packing.close(store, err);
        }
    }
}
