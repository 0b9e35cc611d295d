package io.tileseeder.runtime.wiring;

import io.tileseeder.adapters.azure.AzureConnection;
import io.tileseeder.adapters.azure.AzureTileStore;
import io.tileseeder.adapters.bucket.BucketLocation;
import io.tileseeder.adapters.bucket.BucketTileStore;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.adapters.gcs.GcsConnection;
import io.tileseeder.adapters.gcs.GcsTileStore;
import io.tileseeder.adapters.geopackage.GeoPackageTileStore;
import io.tileseeder.adapters.mbtiles.MbtilesTileStore;
import io.tileseeder.adapters.s3.S3Location;
import io.tileseeder.adapters.s3.S3Options;
import io.tileseeder.adapters.s3.S3TileStore;
import io.tileseeder.outage.RetryPolicy;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileStore;
import io.tileseeder.runtime.settings.Settings.S3Connection;
import io.tileseeder.runtime.settings.Settings.StoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Opens the tile store a path names: a folder, a bucket of a cloud ({@code s3://bucket/prefix},
 * {@code az://container/prefix}, {@code gs://bucket/prefix}), or (the embedded mode) an MBTiles file or a GeoPackage.
 */
public final class Stores {

    private Stores() {
    }

    /**
     * Opens the store. A folder is created when missing and tried with a file of its own, so that one that cannot
     * take tiles is named, with the reason, before any job starts.
     *
     * @throws UncheckedIOException saying why the folder cannot be created, or why tiles cannot be written to it
     */
    public static TileStore open(StoreSettings settings) {
        String path = settings.path();
        if (isFile(path)) {
            if (settings.layout() != Layout.XYZ) {
                throw new IllegalArgumentException("layout " + settings.layout().id() + ": " + path + " is "
                        + (isGeoPackage(path) ? "a GeoPackage" : "an MBTiles file") + ", which names its tiles its "
                        + "own way; layouts are for folders and object stores");
            }
            Path file = Path.of(path).toAbsolutePath();
            if (!Files.isDirectory(file.getParent())) {
                throw new UncheckedIOException(new IOException("cannot write " + file + ": the folder "
                        + file.getParent() + " does not exist"));
            }
            try {
                TileStore tiles = isGeoPackage(path) ? new GeoPackageTileStore(file) : new MbtilesTileStore(file);
                tiles.probe();
                return tiles;
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
        if (BucketLocation.Scheme.of(path) != null) {
            return openCloud(settings, BucketLocation.parse(path));
        }
        if (!isBucket(path)) {
            Path folder = Path.of(path);
            try {
                Files.createDirectories(folder);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the folder " + folder.toAbsolutePath() + ": "
                        + notCreated(folder, e), e);
            }
            try {
                FileTileStore tiles = settings.publicUrl()
                        .map(url -> new FileTileStore(folder, url, settings.layout()))
                        .orElseGet(() -> new FileTileStore(folder, settings.layout()));
                tiles.probe();
                return tiles;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write tiles to " + folder.toAbsolutePath() + ": " + reason(e),
                        e);
            }
        }
        S3Location location = S3Location.parse(path);
        S3Connection connection = settings.s3().orElseThrow(() -> new IllegalArgumentException(
                "the store " + path + " needs an S3 endpoint: set seeder.s3.endpoint, "
                        + "seeder.s3.access-key and seeder.s3.secret-key (SEEDER_S3_ENDPOINT, ...)"));
        try {
            return new S3TileStore(connection.endpoint(), connection.accessKey(), connection.secretKey(),
                    connection.region(), location, S3Options.defaults().withPublicUrl(settings.publicUrl().orElse(null))
                            .withLayout(settings.layout()));
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** An Azure container or a Google Cloud Storage bucket, with the store's default limits. */
    private static TileStore openCloud(StoreSettings settings, BucketLocation location) {
        String publicUrl = settings.publicUrl().orElse(null);
        try {
            return switch (location.scheme()) {
                case AZ -> {
                    AzureConnection azure = settings.clouds().azure().orElseThrow(() -> new IllegalArgumentException(
                            "the store " + location + " needs an Azure Storage account: set "
                                    + "seeder.azure.connection-string (SEEDER_AZURE_CONNECTION_STRING), or "
                                    + "seeder.azure.endpoint with an account key or a SAS token"));
                    yield new AzureTileStore(azure, location, settings.layout(), publicUrl,
                            BucketTileStore.DEFAULT_CACHE_CONTROL, BucketTileStore.DEFAULT_MAX_IN_FLIGHT,
                            RetryPolicy.DEFAULT);
                }
                case GS -> new GcsTileStore(settings.clouds().gcs().orElse(new GcsConnection(Optional.empty(),
                        Optional.empty(), Optional.empty())), location, settings.layout(), publicUrl,
                        BucketTileStore.DEFAULT_CACHE_CONTROL, BucketTileStore.DEFAULT_MAX_IN_FLIGHT,
                        RetryPolicy.DEFAULT);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** Whether the path names a bucket of a cloud: {@code s3://}, {@code az://} or {@code gs://}. */
    public static boolean isBucket(String path) {
        return path.regionMatches(true, 0, "s3://", 0, 5) || BucketLocation.Scheme.of(path) != null;
    }

    /**
     * Whether the path names a single-file store (an MBTiles file or a GeoPackage, by its extension), which one
     * process writes: the distributed mode reaches one by packing a finished cache instead.
     */
    public static boolean isFile(String path) {
        return !isBucket(path) && (path.toLowerCase(Locale.ROOT).endsWith(".mbtiles") || isGeoPackage(path));
    }

    private static boolean isGeoPackage(String path) {
        return path.toLowerCase(Locale.ROOT).endsWith(".gpkg");
    }

    /** Requests the store sent again after a failure worth retrying; 0 for a folder. */
    public static long retries(TileStore store) {
        return store instanceof BucketTileStore bucket ? bucket.retries() : 0;
    }

    /**
     * Why a folder could not be created: a file where a folder of its path should be, a file system that takes no
     * folders (Linux says "no such file or directory" for /proc/x, whose parent is there), or what the operating
     * system said.
     */
    private static String notCreated(Path folder, IOException e) {
        Path existing = folder.toAbsolutePath().getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            return existing + " is a file, not a folder";
        }
        if (e instanceof NoSuchFileException && existing != null) {
            return existing + " takes no new folders" + fileSystem(existing);
        }
        return reason(e);
    }

    private static String fileSystem(Path folder) {
        try {
            return " (a " + Files.getFileStore(folder).type() + " file system)";
        } catch (IOException e) {
            return "";
        }
    }

    /** What the operating system said, in its own few words ("Permission denied", "Read-only file system"). */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "a file is in the way of a folder";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(Locale.ROOT);
        }
        return e instanceof NoSuchFileException ? "no such file or directory" : String.valueOf(e.getMessage());
    }
}
