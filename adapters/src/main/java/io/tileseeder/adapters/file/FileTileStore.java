package io.tileseeder.adapters.file;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Tiles as files below a root folder, at {@code {layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}}.
 *
 * <p>Durable writes: each tile goes to a temporary file beside its target, is fsynced, then atomically renamed
 * over the target, and the folders that changed are fsynced, all before {@link #write} returns. A reader sees
 * the old tile or the new one, never a part; a failed write leaves no temporary file behind.
 *
 * <p>An fsync costs one to two milliseconds here; callers get throughput by storing several metatiles at once
 * (the worker's store stage), each call writing its tiles in turn.
 */
public final class FileTileStore implements TileStore {

    private static final String TEMP_SUFFIX = ".tmp";
    private static final long PROCESS = ProcessHandle.current().pid();
    private static final AtomicLong TEMP_NAMES = new AtomicLong();

    private final Path root;
    private final String publicUrl;
    private final Layout layout;

    /** A store in the xyz layout whose clients read it as files: its public URL is the root's {@code file:} URL. */
    public FileTileStore(Path root) {
        this(root, Layout.XYZ);
    }

    /** A store whose clients read it as files: its public URL is the root's {@code file:} URL. */
    public FileTileStore(Path root, Layout layout) {
        this(root, root.toAbsolutePath().normalize().toUri().toString().replaceAll("/+$", ""), layout);
    }

    /** @param publicUrl where clients read the root folder, e.g. the web server that serves it */
    public FileTileStore(Path root, String publicUrl, Layout layout) {
        this.root = root.toAbsolutePath().normalize();
        this.publicUrl = publicUrl;
        this.layout = layout;
    }

    @Override
    public Layout layout() {
        return layout;
    }

    @Override
    public String publicUrl() {
        return publicUrl;
    }

    /** Writes and deletes a file of its own in the root folder: the one proof that tiles can be written there. */
    @Override
    public void probe() throws IOException {
        Files.delete(Files.createTempFile(root, ".seeder-probe-", ""));
    }

    public Path root() {
        return root;
    }

    /**
     * Where the tile lives: always below {@link #root()}. A key whose layer would lead elsewhere ({@code ..}, an
     * absolute path) is refused, whoever built it.
     *
     * @throws IllegalArgumentException for a key outside the store, or not a path at all
     */
    public Path pathOf(TileKey key) {
        Path path = root.resolve(layout.path(key)).normalize();
        if (!path.startsWith(root)) {
            throw new IllegalArgumentException("tile " + key.path() + " is outside the store " + root);
        }
        return path;
    }

    /** Answered without an exception for a missing tile: on a first seed, that is every tile asked about. */
    @Override
    public Optional<Instant> lastModified(TileKey key) {
        long millis = pathOf(key).toFile().lastModified();
        return millis == 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
    }

    /**
     * Whether the zoom's folder holds a file, in it or in one of its column (or row) folders: a column folder that
     * deletions (a truncate) left empty does not count, as on S3, where no folder outlives its objects. Lists the
     * zoom's folder and its column folders until one holds an entry: one or two listings while the zoom holds tiles.
     * In the quadkey layout, whose tiles of all zooms share the cache's folder, the folder is read until a tile of the
     * zoom turns up.
     */
    @Override
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        if (layout == Layout.QUADKEY) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(metadataPath(cache, ""),
                    entry -> layout.isTileOfZoom(entry.getFileName().toString(), z))) {
                return entries.iterator().hasNext();
            } catch (NoSuchFileException | NotDirectoryException e) {
                return false;
            }
        }
        Path folder = metadataPath(cache, Integer.toString(z));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                if (!Files.isDirectory(entry) || holdsAnything(entry)) {
                    return true;
                }
            }
            return false;
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        }
    }

    /** Whether the folder holds any entry; false if it is gone. */
    private static boolean holdsAnything(Path folder) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            return entries.iterator().hasNext();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        }
    }

    /** Lists the zoom's column (or row) folders, then each one's files; in the quadkey layout, the cache's folder. */
    @Override
    public void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException {
        TileMatrixSet set = cache.tileMatrixSet();
        if (layout == Layout.QUADKEY) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(metadataPath(cache, ""))) {
                for (Path file : files) {
                    layout.tileOf(set, z, file.getFileName().toString(), format).ifPresent(each);
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // a cache without a folder holds no tile
            }
            return;
        }
        Path zoom = metadataPath(cache, Integer.toString(z));
        try (DirectoryStream<Path> columns = Files.newDirectoryStream(zoom, Files::isDirectory)) {
            for (Path column : columns) {
                String x = column.getFileName().toString();
                try (DirectoryStream<Path> files = Files.newDirectoryStream(column)) {
                    for (Path file : files) {
                        layout.tileOf(set, z, x + "/" + file.getFileName(), format).ifPresent(each);
                    }
                } catch (NoSuchFileException e) {
                    // a column deleted while the zoom is listed holds no tile
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // a zoom without a folder holds no tile
        }
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        Path path = pathOf(key);
        try {
            return Optional.of(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void write(Collection<EncodedTile> tiles) throws IOException {
        Set<Path> folders = new LinkedHashSet<>();
        for (EncodedTile tile : tiles) {
            Path target = pathOf(tile.key());
            if (folders.add(target.getParent())) {
                createFolders(target.getParent());
            }
            writeDurably(target, tile.data());
        }
        for (Path folder : folders) {
            syncFolder(folder);
        }
    }

    @Override
    public long delete(Collection<TileKey> keys) throws IOException {
        long deleted = 0;
        Set<Path> folders = new LinkedHashSet<>();
        for (TileKey key : keys) {
            Path path = pathOf(key);
            if (Files.deleteIfExists(path)) {
                deleted++;
                folders.add(path.getParent());
            }
        }
        for (Path folder : folders) {
            syncFolder(folder);
        }
        return deleted;
    }

    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        Path target = metadataPath(cache, name);
        createFolders(target.getParent());
        writeDurably(target, content);
        syncFolder(target.getParent());
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(metadataPath(cache, name)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) {
        return Files.isRegularFile(metadataPath(cache, name));
    }

    /** Walks the folders below the cache's, {@code depth} deep, and keeps those holding the document. */
    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) throws IOException {
        Path folder = metadataPath(cache, "");
        List<String> found = new ArrayList<>();
        try (Stream<Path> paths = Files.find(folder, depth, (path, attributes) -> attributes.isDirectory()
                && folder.relativize(path).getNameCount() == depth && !path.equals(folder))) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (Files.isRegularFile(path.resolve(document))) {
                    found.add(folder.relativize(path).toString().replace(File.separatorChar, '/'));
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Collections.sort(found);
        return found;
    }

    /** Deletes the tiles below the folder, then the documents directly in it, then the folders left empty. */
    @Override
    public long deleteCache(TileCache cache) throws IOException {
        Path folder = metadataPath(cache, "");
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        List<Path> documents = new ArrayList<>();
        List<Path> folders = new ArrayList<>();
        long deleted = 0;
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (Files.isDirectory(path)) {
                    folders.add(path);
                } else if (!layout.isTile(folder.relativize(path).toString().replace(File.separatorChar, '/'))) {
                    documents.add(path);
                } else if (Files.deleteIfExists(path)) {
                    deleted++;
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        for (Path document : documents) {
            deleted += Files.deleteIfExists(document) ? 1 : 0;
        }
        Collections.reverse(folders);
        for (Path empty : folders) {
            Files.deleteIfExists(empty);
        }
        syncFolder(folder.getParent());
        return deleted;
    }

    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        Set<Path> folders = new LinkedHashSet<>();
        for (String name : names) {
            Path path = metadataPath(cache, name);
            if (Files.deleteIfExists(path)) {
                folders.add(path.getParent());
            }
        }
        for (Path folder : folders) {
            syncFolder(folder);
        }
    }

    /** Where a document (or a zoom's folder) beside a cache's tiles lives: always below {@link #root()}. */
    private Path metadataPath(TileCache cache, String name) {
        String folder = layout.folder(cache);
        Path path = root.resolve(folder).resolve(name).normalize();
        if (!path.startsWith(root)) {
            throw new IllegalArgumentException("document " + folder + "/" + name
                    + " is outside the store " + root);
        }
        return path;
    }

    @Override
    public String describe() {
        return root.toString();
    }

    /** Writes beside the target under a name no other writer uses (this process's id and a counter), then renames. */
    private static void writeDurably(Path target, byte[] data) throws IOException {
        Path folder = target.getParent();
        Path temp = folder.resolve("." + target.getFileName() + "." + PROCESS + "-" + TEMP_NAMES.incrementAndGet()
                + TEMP_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(data);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(false);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the filesystem of " + folder + " cannot rename atomically", e);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /**
     * Creates the folder and its parents where missing. Looked at first: most writes go to a folder that exists, and
     * {@link Files#createDirectories} would find that out by failing to create it, at the cost of two exceptions.
     */
    private static void createFolders(Path folder) throws IOException {
        if (Files.isDirectory(folder)) {
            return;
        }
        try {
            Files.createDirectories(folder);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("cannot create folder " + folder + ": a file is in the way", e);
        }
    }

    /** Makes renames and deletions in {@code folder} durable (Linux: fsync of the directory). */
    private static void syncFolder(Path folder) throws IOException {
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").startsWith("Windows")) {
                throw e;
            }
        }
    }
}
