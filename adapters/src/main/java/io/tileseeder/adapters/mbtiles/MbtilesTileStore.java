package io.tileseeder.adapters.mbtiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.adapters.sqlite.SqliteFile;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Digests;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.StoredTile;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Tiles of one cache in an MBTiles 1.3 file (SQLite): one layer without dimensions, in WebMercatorQuad and one format,
 * as the specification has it. Identical tiles are stored once: a {@code map} table (zoom, column, TMS row, the tile's
 * MD5, when it was written) and an {@code images} table (MD5, bytes) behind the {@code tiles} view readers open. The
 * {@code metadata} table holds {@code name} and {@code format} from the first tile written, then the rest of the
 * cache's TileJSON (bounds, center, zooms, attribution) each time a job writes it; the documents a job leaves beside
 * a cache (TileJSON, manifest, done markers) are in a table of their own, by their path in a folder store
 * ({@code {layer}/WebMercatorQuad/{name}}).
 *
 * <p>One {@link SqliteFile}, one writer at a time; each {@link #write} is one transaction, in WAL mode with
 * {@code synchronous=FULL}: durable when it returns, and a crash leaves the file as of the last commit.
 */
public final class MbtilesTileStore implements TileStore, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYER = "tileseeder_layer";
    private static final TileMatrixSet SET = TileMatrixSet.WEB_MERCATOR_QUAD;

    private final Path file;
    private final SqliteFile sqlite;
    /** The file's layer and MBTiles format, once a tile named them (null before); guarded by the file's lock. */
    private String layer;
    private String format;

    /**
     * Opens the file, creating it with the schema when it does not exist.
     *
     * @throws IOException if it cannot be created or opened, is not an SQLite database, or another tool's MBTiles
     */
    public MbtilesTileStore(Path file) throws IOException {
        this.sqlite = new SqliteFile(file);
        this.file = sqlite.path();
        try {
            if (sqlite.has("table", "tiles")) {
                throw new IOException(this.file + " is an MBTiles file with a tiles table (another tool's): "
                        + "Tile Seeder writes its own, with identical tiles shared; name a new file");
            }
            sqlite.execute("CREATE TABLE IF NOT EXISTS metadata (name TEXT NOT NULL PRIMARY KEY, value TEXT)",
                    "CREATE TABLE IF NOT EXISTS map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, "
                            + "tile_row INTEGER NOT NULL, tile_id TEXT NOT NULL, written INTEGER NOT NULL, "
                            + "PRIMARY KEY (zoom_level, tile_column, tile_row))",
                    "CREATE INDEX IF NOT EXISTS map_tile_id ON map (tile_id)",
                    "CREATE TABLE IF NOT EXISTS images (tile_id TEXT NOT NULL PRIMARY KEY, tile_data BLOB NOT NULL)",
                    "CREATE VIEW IF NOT EXISTS tiles AS SELECT map.zoom_level AS zoom_level, "
                            + "map.tile_column AS tile_column, map.tile_row AS tile_row, "
                            + "images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id");
            sqlite.createDocuments();
            Map<String, String> metadata = metadata();
            this.layer = metadata.get(LAYER);
            this.format = metadata.get("format");
        } catch (IOException e) {
            sqlite.close();
            throw e;
        }
    }

    /** The MBTiles {@code format} of a tile format; empty for one that mixes two image types. */
    static Optional<String> formatOf(TileFormat format) {
        return switch (format) {
            case PNG, PNG8 -> Optional.of("png");
            case JPEG -> Optional.of("jpg");
            case WEBP, WEBP_LOSSLESS -> Optional.of("webp");
            case JPEG_PNG -> Optional.empty();
        };
    }

    @Override
    public Optional<FieldError> refuses(JobSpec job) {
        if (!job.tileMatrixSet().equals(SET)) {
            return Optional.of(new FieldError("tileMatrixSet", job.tileMatrixSet().id() + ": an MBTiles file "
                    + "holds WebMercatorQuad tiles; write another set to a folder or an object store"));
        }
        if (formatOf(job.format()).isEmpty()) {
            return Optional.of(new FieldError("format", job.format().id() + " mixes two image types; an MBTiles "
                    + "file holds one format"));
        }
        if (!job.dimensions().isEmpty()) {
            return Optional.of(new FieldError("layer", job.layer() + " has dimensions: an MBTiles file holds one "
                    + "cache; write its caches to a folder or an object store"));
        }
        try {
            return sqlite.run(sql -> layer != null && (!layer.equals(job.layer())
                    || !formatOf(job.format()).orElseThrow().equals(format))
                    ? Optional.of(new FieldError("layer", file.getFileName() + " holds the layer " + layer + " in "
                    + format + "; an MBTiles file holds one layer in one format")) : Optional.<FieldError>empty());
        } catch (IOException e) {
            return Optional.of(new FieldError("layer", e.getMessage()));
        }
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        return Optional.ofNullable(stored(List.of(key)).get(key)).map(StoredTile::lastModified);
    }

    /** From the {@code map} table alone: when each tile was written, and its MD5 (its {@code tile_id}). */
    @Override
    public Map<TileKey, StoredTile> stored(Collection<TileKey> keys) throws IOException {
        Map<TileKey, StoredTile> found = new HashMap<>();
        sqlite.run(sql -> {
            try (PreparedStatement select = sql.prepareStatement("SELECT written, tile_id FROM map "
                    + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                for (TileKey key : keys) {
                    if (holds(key)) {
                        bind(select, key.tile());
                        try (ResultSet row = select.executeQuery()) {
                            if (row.next()) {
                                found.put(key, new StoredTile(Instant.ofEpochMilli(row.getLong(1)), row.getString(2)));
                            }
                        }
                    }
                }
            }
            return null;
        });
        return found;
    }

    @Override
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        return holds(cache) && sqlite.run(sql -> {
            try (PreparedStatement select = sql.prepareStatement(
                    "SELECT 1 FROM map WHERE zoom_level = ? LIMIT 1")) {
                select.setInt(1, z);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /** None: an MBTiles file holds one cache of a layer without dimensions. */
    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) {
        return List.of();
    }

    @Override
    public void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException {
        sqlite.run(sql -> {
            if (!holds(cache) || !formatOf(format).equals(Optional.ofNullable(this.format))) {
                return null;
            }
            try (PreparedStatement select = sql.prepareStatement(
                    "SELECT tile_column, tile_row FROM map WHERE zoom_level = ?")) {
                select.setInt(1, z);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        each.accept(TileCoord.of(z, row.getInt(1), flip(z, row.getInt(2))));
                    }
                }
            }
            return null;
        });
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        if (!holds(key)) {
            return Optional.empty();
        }
        return sqlite.run(sql -> {
            try (PreparedStatement select = sql.prepareStatement("SELECT tile_data FROM tiles "
                    + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                bind(select, key.tile());
                return SqliteFile.blob(select);
            }
        });
    }

    /**
     * One transaction: each tile's bytes under their MD5 (once), its row in {@code map}, and a replaced tile's bytes
     * deleted when no other tile shares them. The first tile written names the file's layer and format.
     *
     * @throws IOException if a tile is not of this file's layer and format
     */
    @Override
    public void write(Collection<EncodedTile> tiles) throws IOException {
        if (tiles.isEmpty()) {
            return;
        }
        try {
            sqlite.transaction(sql -> {
                claim(sql, tiles);
                insert(sql, tiles);
                return null;
            });
        } catch (IOException e) {
            sqlite.run(sql -> {
                Map<String, String> metadata = metadata(sql);
                layer = metadata.get(LAYER);
                format = metadata.get("format");
                return null;
            });
            throw e;
        }
    }

    /** Each tile's bytes under their MD5 (once) and its row in {@code map}, within the caller's transaction. */
    private static void insert(Connection sql, Collection<EncodedTile> tiles) throws SQLException {
        try (PreparedStatement image = sql.prepareStatement(
                     "INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)");
             PreparedStatement old = sql.prepareStatement("SELECT tile_id FROM map "
                     + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?");
             PreparedStatement map = sql.prepareStatement("INSERT OR REPLACE INTO map (zoom_level, "
                     + "tile_column, tile_row, tile_id, written) VALUES (?, ?, ?, ?, ?)")) {
            long now = Instant.now().toEpochMilli();
            for (EncodedTile tile : tiles) {
                String id = Digests.md5(tile.data());
                image.setString(1, id);
                image.setBytes(2, tile.data());
                image.executeUpdate();
                bind(old, tile.key().tile());
                String replaced = null;
                try (ResultSet row = old.executeQuery()) {
                    if (row.next()) {
                        replaced = row.getString(1);
                    }
                }
                bind(map, tile.key().tile());
                map.setString(4, id);
                map.setLong(5, now);
                map.executeUpdate();
                if (replaced != null && !replaced.equals(id)) {
                    dropUnused(sql, replaced);
                }
            }
        }
    }

    @Override
    public long delete(Collection<TileKey> keys) throws IOException {
        return sqlite.transaction(sql -> {
            long deleted = 0;
            try (PreparedStatement old = sql.prepareStatement("SELECT tile_id FROM map "
                         + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?");
                 PreparedStatement delete = sql.prepareStatement("DELETE FROM map "
                         + "WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                for (TileKey key : keys) {
                    if (!holds(key)) {
                        continue;
                    }
                    bind(old, key.tile());
                    String id;
                    try (ResultSet row = old.executeQuery()) {
                        id = row.next() ? row.getString(1) : null;
                    }
                    if (id != null) {
                        bind(delete, key.tile());
                        delete.executeUpdate();
                        dropUnused(sql, id);
                        deleted++;
                    }
                }
            }
            return deleted;
        });
    }

    /** Every tile and document, and the metadata: the file holds no cache after. */
    @Override
    public long deleteCache(TileCache cache) throws IOException {
        if (!holds(cache)) {
            return 0;
        }
        return sqlite.transaction(sql -> {
            try (Statement statement = sql.createStatement()) {
                long deleted = statement.executeUpdate("DELETE FROM map");
                deleted += statement.executeUpdate("DELETE FROM tileseeder_documents");
                statement.executeUpdate("DELETE FROM images");
                statement.executeUpdate("DELETE FROM metadata");
                layer = null;
                format = null;
                return deleted;
            }
        });
    }

    /**
     * The document in the documents table; a TileJSON ({@code tilejson-*.json}) also updates the {@code metadata}
     * table: its name, attribution, bounds, center and zooms.
     */
    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        if (!holds(cache)) {
            throw new IOException(file + " holds the cache " + layer + "/" + SET.id()
                    + ", not " + cache.path());
        }
        Map<String, String> fields = name.startsWith("tilejson-") ? tileJsonFields(content) : Map.of();
        sqlite.transaction(sql -> {
            SqliteFile.putDocument(sql, cache.path() + "/" + name, content);
            putMetadata(sql, fields);
            return null;
        });
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return holds(cache) ? sqlite.document(cache.path() + "/" + name) : Optional.empty();
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) throws IOException {
        return readMetadata(cache, name).isPresent();
    }

    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        if (holds(cache)) {
            sqlite.deleteDocuments(names.stream().map(name -> cache.path() + "/" + name).toList());
        }
    }

    /** The file's {@code file:} URL: clients open the file, not a tile URL. */
    @Override
    public String publicUrl() {
        return file.toUri().toString();
    }

    @Override
    public String describe() {
        return file.toString();
    }

    /** A read of the metadata, and the file writable. */
    @Override
    public void probe() throws IOException {
        metadata();
        if (!Files.isWritable(file)) {
            throw new IOException(file + " is not writable");
        }
    }

    @Override
    public void close() {
        sqlite.close();
    }

    private Map<String, String> metadata() throws IOException {
        return sqlite.run(MbtilesTileStore::metadata);
    }

    private static Map<String, String> metadata(Connection sql) throws SQLException {
        Map<String, String> metadata = new HashMap<>();
        try (Statement statement = sql.createStatement();
             ResultSet row = statement.executeQuery("SELECT name, value FROM metadata")) {
            while (row.next()) {
                metadata.put(row.getString(1), row.getString(2));
            }
        }
        return metadata;
    }

    /**
     * Names the file's layer and format with its first tile, within the caller's transaction (a failed one reloads
     * them); refuses a tile of another layer, format or set, or of a layer with dimensions.
     */
    private void claim(Connection sql, Collection<EncodedTile> tiles) throws SQLException, IOException {
        TileKey first = tiles.iterator().next().key();
        if (layer == null) {
            String named = formatOf(first.format()).orElseThrow(() -> new IOException(first.format().id()
                    + " mixes two image types; an MBTiles file holds one format"));
            putMetadata(sql, Map.of(LAYER, first.layer(), "name", first.layer(), "format", named, "type",
                    "baselayer", "version", "1"));
            layer = first.layer();
            format = named;
        }
        for (EncodedTile tile : tiles) {
            TileKey key = tile.key();
            if (!key.tileMatrixSet().equals(SET) || !key.cache().dimensions().isEmpty()) {
                throw new IOException(file + " holds WebMercatorQuad tiles of a layer without dimensions, not "
                        + key.path());
            }
            if (!layer.equals(key.layer()) || !formatOf(key.format()).equals(Optional.of(format))) {
                throw new IOException(file + " holds the layer " + layer + " in " + format
                        + "; an MBTiles file holds one layer in one format, not " + key.path());
            }
        }
    }

    /** Whether the tile is of the file's cache and format (false before any tile was written). */
    private boolean holds(TileKey key) throws IOException {
        return sqlite.run(sql -> holds(key.cache()) && formatOf(key.format()).equals(Optional.ofNullable(format)));
    }

    /** Whether the cache is the file's (true before any tile was written: documents may come first). */
    private boolean holds(TileCache cache) throws IOException {
        return sqlite.run(sql -> cache.tileMatrixSet().equals(SET) && cache.dimensions().isEmpty()
                && (layer == null || layer.equals(cache.layer())));
    }

    private static Map<String, String> tileJsonFields(byte[] content) throws IOException {
        JsonNode tileJson = JSON.readTree(content);
        Map<String, String> fields = new HashMap<>();
        if (tileJson.hasNonNull("name")) {
            fields.put("name", tileJson.get("name").asText());
        }
        if (tileJson.hasNonNull("attribution")) {
            fields.put("attribution", tileJson.get("attribution").asText());
        }
        JsonNode bounds = tileJson.path("bounds");
        if (bounds.size() == 4) {
            double west = bounds.get(0).asDouble();
            double south = bounds.get(1).asDouble();
            double east = bounds.get(2).asDouble();
            double north = bounds.get(3).asDouble();
            fields.put("bounds", String.format(Locale.ROOT, "%s,%s,%s,%s", west, south, east, north));
            fields.put("center", String.format(Locale.ROOT, "%s,%s,%d", (west + east) / 2, (south + north) / 2,
                    tileJson.path("minzoom").asInt(0)));
        }
        if (tileJson.has("minzoom")) {
            fields.put("minzoom", tileJson.get("minzoom").asText());
        }
        if (tileJson.has("maxzoom")) {
            fields.put("maxzoom", tileJson.get("maxzoom").asText());
        }
        return fields;
    }

    private static void putMetadata(Connection sql, Map<String, String> fields) throws SQLException {
        try (PreparedStatement put = sql.prepareStatement(
                "INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")) {
            for (Map.Entry<String, String> field : fields.entrySet()) {
                put.setString(1, field.getKey());
                put.setString(2, field.getValue());
                put.executeUpdate();
            }
        }
    }

    /** Deletes the bytes under {@code id} unless a tile still has them. */
    private static void dropUnused(Connection sql, String id) throws SQLException {
        try (PreparedStatement drop = sql.prepareStatement("DELETE FROM images WHERE tile_id = ? "
                + "AND NOT EXISTS (SELECT 1 FROM map WHERE tile_id = ?)")) {
            drop.setString(1, id);
            drop.setString(2, id);
            drop.executeUpdate();
        }
    }

    /** Binds zoom, column and the TMS row (row 0 at the bottom, as MBTiles has it) to the first three parameters. */
    private static void bind(PreparedStatement statement, TileCoord tile) throws SQLException {
        statement.setInt(1, tile.z());
        statement.setInt(2, tile.x());
        statement.setInt(3, flip(tile.z(), tile.y()));
    }

    /** An XYZ row as a TMS row and back. */
    private static int flip(int z, int row) {
        return (1 << z) - 1 - row;
    }
}
