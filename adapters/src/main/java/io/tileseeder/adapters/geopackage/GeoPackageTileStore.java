package io.tileseeder.adapters.geopackage;

import io.tileseeder.adapters.sqlite.SqliteFile;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrix;
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
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Collection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Tiles in an OGC GeoPackage 1.3 file (SQLite): a tile pyramid table per layer and tile matrix set, named
 * {@code {layer}_{set}}, each with its {@code gpkg_contents}, {@code gpkg_tile_matrix_set} and a
 * {@code gpkg_tile_matrix} row per zoom it holds tiles of, its CRS in {@code gpkg_spatial_ref_sys} (WKT 1 from the EPSG
 * dataset, {@code srs-wkt1.properties}), rows counted from the top as the product's are. PNG and JPEG tiles (and
 * {@code jpeg-png}, which mixes them) as GeoPackage has them; WebP with the {@code gpkg_webp} extension. When each tile
 * was written and its MD5 are kept in a table of the product's, as are the documents a job leaves beside a cache.
 *
 * <p>A set whose zooms do not all cover one extent from one corner is no GeoPackage pyramid, and a layer with
 * dimensions has more than one cache per set: jobs of either are refused. Durability as {@link SqliteFile}'s.
 */
public final class GeoPackageTileStore implements TileStore, AutoCloseable {

    /** "GPKG", the application id GeoPackage 1.2 and later set in the SQLite header. */
    private static final int APPLICATION_ID = 0x47504B47;
    /** GeoPackage 1.3.0. */
    private static final int USER_VERSION = 10300;
    private static final Map<Integer, String> WKT = wkt();

    private final Path file;
    private final SqliteFile sqlite;
    /** The format of each pyramid table, by table name; guarded by the file's lock. */
    private final Map<String, TileFormat> tables = new HashMap<>();
    /** The zooms of each table known to have their row in gpkg_tile_matrix, as {@code table/z}; guarded likewise. */
    private final Set<String> matrices = new HashSet<>();

    /**
     * Opens the file, creating the GeoPackage tables when it is new.
     *
     * @throws IOException if it cannot be opened, is not an SQLite database, or is another tool's GeoPackage
     */
    public GeoPackageTileStore(Path file) throws IOException {
        this.sqlite = new SqliteFile(file);
        this.file = sqlite.path();
        try {
            if (sqlite.has("table", "gpkg_contents") && !sqlite.has("table", "tileseeder_tables")) {
                throw new IOException(this.file + " is a GeoPackage another tool wrote: Tile Seeder adds its tile "
                        + "pyramids only to its own; name a new file");
            }
            if (!sqlite.has("table", "gpkg_contents")) {
                create();
            }
            sqlite.createDocuments();
            sqlite.run(this::loadTables);
        } catch (IOException e) {
            sqlite.close();
            throw e;
        }
    }

    /**
     * Reads which tables there are, in which format, and forgets which zooms have their matrix row: at opening, and
     * after a write that was rolled back.
     */
    private Void loadTables(Connection sql) throws SQLException {
        tables.clear();
        matrices.clear();
        try (Statement statement = sql.createStatement();
             ResultSet row = statement.executeQuery("SELECT table_name, format FROM tileseeder_tables")) {
            while (row.next()) {
                tables.put(row.getString(1), TileFormat.byId(row.getString(2)).orElseThrow());
            }
        }
        return null;
    }

    private void create() throws IOException {
        sqlite.run(sql -> {
            try (Statement statement = sql.createStatement()) {
                statement.execute("PRAGMA application_id = " + APPLICATION_ID);
                statement.execute("PRAGMA user_version = " + USER_VERSION);
            }
            return null;
        });
        sqlite.execute("CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY "
                        + "KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT "
                        + "NOT NULL, description TEXT)",
                "CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, "
                        + "identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT "
                        + "(strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y "
                        + "DOUBLE, srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES "
                        + "gpkg_spatial_ref_sys(srs_id))",
                "CREATE TABLE gpkg_tile_matrix_set (table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL, "
                        + "min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL, "
                        + "CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES "
                        + "gpkg_contents(table_name), CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES "
                        + "gpkg_spatial_ref_sys (srs_id))",
                "CREATE TABLE gpkg_tile_matrix (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width "
                        + "INTEGER NOT NULL, matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height "
                        + "INTEGER NOT NULL, pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL, CONSTRAINT pk_ttm "
                        + "PRIMARY KEY (table_name, zoom_level), CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) "
                        + "REFERENCES gpkg_contents(table_name))",
                "CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, "
                        + "definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, "
                        + "column_name, extension_name))",
                "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', "
                        + "'undefined cartesian coordinate reference system')",
                "INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', "
                        + "'undefined geographic coordinate reference system')",
                "CREATE TABLE tileseeder_tables (table_name TEXT NOT NULL PRIMARY KEY, layer TEXT NOT NULL, "
                        + "tile_matrix_set TEXT NOT NULL, format TEXT NOT NULL)",
                "CREATE TABLE tileseeder_tiles (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, tile_column "
                        + "INTEGER NOT NULL, tile_row INTEGER NOT NULL, written INTEGER NOT NULL, md5 TEXT NOT NULL, "
                        + "PRIMARY KEY (table_name, zoom_level, tile_column, tile_row))");
        sqlite.transaction(sql -> {
            addSrs(sql, 4326);
            return null;
        });
    }

    /** The pyramid table of a cache: {@code {layer}_{set}}. */
    static String table(TileCache cache) {
        return cache.layer() + "_" + cache.tileMatrixSet().id();
    }

    @Override
    public Optional<FieldError> refuses(JobSpec job) {
        if (!job.dimensions().isEmpty()) {
            return Optional.of(new FieldError("layer", job.layer() + " has dimensions: a GeoPackage holds one tile "
                    + "pyramid per layer and set; write its caches to a folder or an object store"));
        }
        Optional<String> set = notAPyramid(job.tileMatrixSet());
        if (set.isPresent()) {
            return Optional.of(new FieldError("tileMatrixSet", set.get()));
        }
        String table = table(new TileCache(job.layer(), job.tileMatrixSet()));
        try {
            TileFormat held = sqlite.run(sql -> tables.get(table));
            if (held != null && held != job.format()) {
                return Optional.of(new FieldError("format", file.getFileName() + " holds " + job.layer() + " in "
                        + job.tileMatrixSet().id() + " as " + held.id() + " (table " + table + "); a tile pyramid "
                        + "holds one format"));
            }
        } catch (IOException e) {
            return Optional.of(new FieldError("layer", e.getMessage()));
        }
        return Optional.empty();
    }

    /** Why the set cannot be a GeoPackage tile pyramid, or empty if it can. */
    static Optional<String> notAPyramid(TileMatrixSet set) {
        int epsg = srsId(set);
        if (!WKT.containsKey(epsg)) {
            return Optional.of(set.id() + ": its CRS " + set.crs() + " has no WKT definition in this product, "
                    + "which a GeoPackage names its CRS with (dev/srs-wkt adds one)");
        }
        Bounds extent = set.matrix(0).bounds();
        for (int z = 1; z <= set.maxZoom(); z++) {
            Bounds bounds = set.matrix(z).bounds();
            double tolerance = 1e-9 * Math.max(extent.width(), extent.height());
            if (Math.abs(bounds.minX() - extent.minX()) > tolerance || Math.abs(bounds.maxY() - extent.maxY()) > tolerance
                    || Math.abs(bounds.maxX() - extent.maxX()) > tolerance
                    || Math.abs(bounds.minY() - extent.minY()) > tolerance) {
                return Optional.of(set.id() + ": zoom " + z + " covers another extent than zoom 0; a GeoPackage "
                        + "tile pyramid has every zoom over one extent (a quad set such as WebMercatorQuad)");
            }
        }
        return Optional.empty();
    }

    private static int srsId(TileMatrixSet set) {
        return set.referenceSystem().epsg() == 0 ? 4326 : set.referenceSystem().epsg();
    }

    @Override
    public Optional<Instant> lastModified(TileKey key) throws IOException {
        return Optional.ofNullable(stored(List.of(key)).get(key)).map(StoredTile::lastModified);
    }

    @Override
    public Map<TileKey, StoredTile> stored(Collection<TileKey> keys) throws IOException {
        return sqlite.run(sql -> {
            Map<TileKey, StoredTile> found = new HashMap<>();
            try (PreparedStatement select = sql.prepareStatement("SELECT written, md5 FROM tileseeder_tiles "
                    + "WHERE table_name = ? AND zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                for (TileKey key : keys) {
                    if (key.format() == tables.get(table(key.cache())) && key.cache().dimensions().isEmpty()) {
                        select.setString(1, table(key.cache()));
                        bind(select, 2, key.tile());
                        try (ResultSet row = select.executeQuery()) {
                            if (row.next()) {
                                found.put(key, new StoredTile(Instant.ofEpochMilli(row.getLong(1)), row.getString(2)));
                            }
                        }
                    }
                }
            }
            return found;
        });
    }

    @Override
    public boolean hasTiles(TileCache cache, int z) throws IOException {
        return sqlite.run(sql -> {
            if (!tables.containsKey(table(cache)) || !cache.dimensions().isEmpty()) {
                return false;
            }
            try (PreparedStatement select = sql.prepareStatement("SELECT 1 FROM " + quote(table(cache))
                    + " WHERE zoom_level = ? LIMIT 1")) {
                select.setInt(1, z);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /** None: a GeoPackage holds caches of layers without dimensions. */
    @Override
    public List<String> cachesWith(TileCache cache, int depth, String document) {
        return List.of();
    }

    @Override
    public void list(TileCache cache, int z, TileFormat format, Consumer<TileCoord> each) throws IOException {
        sqlite.run(sql -> {
            if (format != tables.get(table(cache)) || !cache.dimensions().isEmpty()) {
                return null;
            }
            try (PreparedStatement select = sql.prepareStatement("SELECT tile_column, tile_row FROM "
                    + quote(table(cache)) + " WHERE zoom_level = ?")) {
                select.setInt(1, z);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        each.accept(TileCoord.of(z, row.getInt(1), row.getInt(2)));
                    }
                }
            }
            return null;
        });
    }

    @Override
    public Optional<byte[]> read(TileKey key) throws IOException {
        return sqlite.run(sql -> {
            if (key.format() != tables.get(table(key.cache())) || !key.cache().dimensions().isEmpty()) {
                return Optional.<byte[]>empty();
            }
            try (PreparedStatement select = sql.prepareStatement("SELECT tile_data FROM " + quote(table(key.cache()))
                    + " WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                bind(select, 1, key.tile());
                return SqliteFile.blob(select);
            }
        });
    }

    /**
     * One transaction; the first tile of a layer and set creates its pyramid table, with its contents and tile matrix
     * set, and the first tile of a zoom its row in {@code gpkg_tile_matrix}.
     *
     * @throws IOException if a tile is of a layer with dimensions, a set that is no pyramid, or another format than
     *                     its table's
     */
    @Override
    public void write(Collection<EncodedTile> tiles) throws IOException {
        if (tiles.isEmpty()) {
            return;
        }
        Map<String, List<EncodedTile>> byTable = new LinkedHashMap<>();
        for (EncodedTile tile : tiles) {
            byTable.computeIfAbsent(table(tile.key().cache()), t -> new ArrayList<>()).add(tile);
        }
        try {
            sqlite.transaction(sql -> {
                insert(sql, byTable);
                return null;
            });
        } catch (IOException e) {
            sqlite.run(this::loadTables);
            throw e;
        }
    }

    /** The tiles, table by table, within the caller's transaction. */
    private void insert(Connection sql, Map<String, List<EncodedTile>> byTable) throws SQLException, IOException {
        long now = Instant.now().toEpochMilli();
        try (PreparedStatement written = sql.prepareStatement("INSERT OR REPLACE INTO tileseeder_tiles "
                + "(table_name, zoom_level, tile_column, tile_row, written, md5) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (List<EncodedTile> group : byTable.values()) {
                String table = null;
                for (EncodedTile tile : group) {
                    table = claim(sql, tile.key());
                    addMatrix(sql, table, tile.key().tileMatrixSet(), tile.key().tile().z());
                }
                try (PreparedStatement put = sql.prepareStatement("INSERT OR REPLACE INTO " + quote(table)
                        + " (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")) {
                    for (EncodedTile tile : group) {
                        bind(put, 1, tile.key().tile());
                        put.setBytes(4, tile.data());
                        put.executeUpdate();
                        written.setString(1, table);
                        bind(written, 2, tile.key().tile());
                        written.setLong(5, now);
                        written.setString(6, Digests.md5(tile.data()));
                        written.executeUpdate();
                    }
                }
            }
        }
    }

    @Override
    public long delete(Collection<TileKey> keys) throws IOException {
        return sqlite.transaction(sql -> {
            long deleted = 0;
            for (TileKey key : keys) {
                String table = table(key.cache());
                if (key.format() != tables.get(table) || !key.cache().dimensions().isEmpty()) {
                    continue;
                }
                try (PreparedStatement delete = sql.prepareStatement("DELETE FROM " + quote(table)
                        + " WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?");
                     PreparedStatement forget = sql.prepareStatement("DELETE FROM tileseeder_tiles WHERE table_name = ? "
                             + "AND zoom_level = ? AND tile_column = ? AND tile_row = ?")) {
                    bind(delete, 1, key.tile());
                    deleted += delete.executeUpdate();
                    forget.setString(1, table);
                    bind(forget, 2, key.tile());
                    forget.executeUpdate();
                }
            }
            return deleted;
        });
    }

    /** The cache's tiles and documents; its pyramid table stays, empty, in the GeoPackage's tables. */
    @Override
    public long deleteCache(TileCache cache) throws IOException {
        String table = table(cache);
        return sqlite.transaction(sql -> {
            long deleted = SqliteFile.deleteDocumentsBelow(sql, cache.path() + "/");
            if (tables.containsKey(table) && cache.dimensions().isEmpty()) {
                try (Statement statement = sql.createStatement();
                     PreparedStatement forget = sql.prepareStatement(
                             "DELETE FROM tileseeder_tiles WHERE table_name = ?")) {
                    deleted += statement.executeUpdate("DELETE FROM " + quote(table));
                    forget.setString(1, table);
                    forget.executeUpdate();
                }
            }
            return deleted;
        });
    }

    @Override
    public void writeMetadata(TileCache cache, String name, byte[] content, String contentType) throws IOException {
        sqlite.transaction(sql -> {
            SqliteFile.putDocument(sql, cache.path() + "/" + name, content);
            return null;
        });
    }

    @Override
    public Optional<byte[]> readMetadata(TileCache cache, String name) throws IOException {
        return sqlite.document(cache.path() + "/" + name);
    }

    @Override
    public boolean hasMetadata(TileCache cache, String name) throws IOException {
        return readMetadata(cache, name).isPresent();
    }

    @Override
    public void deleteMetadata(TileCache cache, Collection<String> names) throws IOException {
        sqlite.deleteDocuments(names.stream().map(name -> cache.path() + "/" + name).toList());
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

    @Override
    public void probe() throws IOException {
        sqlite.has("table", "gpkg_contents");
        if (!Files.isWritable(file)) {
            throw new IOException(file + " is not writable");
        }
    }

    @Override
    public void close() {
        sqlite.close();
    }

    /** The tile's pyramid table, created with the first tile of its layer and set. */
    private String claim(Connection sql, TileKey key) throws SQLException, IOException {
        String table = table(key.cache());
        TileFormat held = tables.get(table);
        if (held != null) {
            if (held != key.format()) {
                throw new IOException(file + ": the table " + table + " holds " + held.id() + " tiles, not "
                        + key.path());
            }
            return table;
        }
        if (!key.cache().dimensions().isEmpty()) {
            throw new IOException(file + " holds caches of layers without dimensions, not " + key.path());
        }
        TileMatrixSet set = key.tileMatrixSet();
        Optional<String> refused = notAPyramid(set);
        if (refused.isPresent()) {
            throw new IOException(file + ": " + refused.get());
        }
        int srs = srsId(set);
        addSrs(sql, srs);
        Bounds extent = set.matrix(0).bounds();
        try (Statement statement = sql.createStatement()) {
            statement.execute("CREATE TABLE " + quote(table) + " (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level "
                    + "INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT "
                    + "NULL, UNIQUE (zoom_level, tile_column, tile_row))");
        }
        try (PreparedStatement contents = sql.prepareStatement("INSERT INTO gpkg_contents (table_name, data_type, "
                + "identifier, description, min_x, min_y, max_x, max_y, srs_id) VALUES (?, 'tiles', ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement matrixSet = sql.prepareStatement("INSERT INTO gpkg_tile_matrix_set (table_name, "
                     + "srs_id, min_x, min_y, max_x, max_y) VALUES (?, ?, ?, ?, ?, ?)");
             PreparedStatement ours = sql.prepareStatement("INSERT INTO tileseeder_tables (table_name, layer, "
                     + "tile_matrix_set, format) VALUES (?, ?, ?, ?)")) {
            contents.setString(1, table);
            contents.setString(2, table);
            contents.setString(3, key.layer() + " in " + set.id());
            bindBounds(contents, 4, extent);
            contents.setInt(8, srs);
            contents.executeUpdate();
            matrixSet.setString(1, table);
            matrixSet.setInt(2, srs);
            bindBounds(matrixSet, 3, extent);
            matrixSet.executeUpdate();
            ours.setString(1, table);
            ours.setString(2, key.layer());
            ours.setString(3, set.id());
            ours.setString(4, key.format().id());
            ours.executeUpdate();
        }
        if (key.format() == TileFormat.WEBP || key.format() == TileFormat.WEBP_LOSSLESS) {
            try (PreparedStatement extension = sql.prepareStatement("INSERT INTO gpkg_extensions (table_name, "
                    + "column_name, extension_name, definition, scope) VALUES (?, 'tile_data', 'gpkg_webp', "
                    + "'http://www.geopackage.org/spec/#extension_tiles_webp', 'read-write')")) {
                extension.setString(1, table);
                extension.executeUpdate();
            }
        }
        tables.put(table, key.format());
        return table;
    }

    /** The zoom's row in {@code gpkg_tile_matrix}, added with its first tile (once per table and zoom). */
    private void addMatrix(Connection sql, String table, TileMatrixSet set, int z) throws SQLException {
        if (!matrices.add(table + "/" + z)) {
            return;
        }
        TileMatrix m = set.matrix(z);
        try (PreparedStatement matrix = sql.prepareStatement("INSERT OR IGNORE INTO gpkg_tile_matrix (table_name, "
                + "zoom_level, matrix_width, matrix_height, tile_width, tile_height, pixel_x_size, pixel_y_size) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            matrix.setString(1, table);
            matrix.setInt(2, z);
            matrix.setInt(3, m.matrixWidth());
            matrix.setInt(4, m.matrixHeight());
            matrix.setInt(5, m.tileWidth());
            matrix.setInt(6, m.tileHeight());
            matrix.setDouble(7, m.cellSize());
            matrix.setDouble(8, m.cellSize());
            matrix.executeUpdate();
        }
    }

    private static void addSrs(Connection sql, int srs) throws SQLException {
        String wkt = WKT.get(srs);
        try (PreparedStatement insert = sql.prepareStatement("INSERT OR IGNORE INTO gpkg_spatial_ref_sys (srs_name, "
                + "srs_id, organization, organization_coordsys_id, definition) VALUES (?, ?, 'EPSG', ?, ?)")) {
            insert.setString(1, wkt.substring(wkt.indexOf('"') + 1, wkt.indexOf('"', wkt.indexOf('"') + 1)));
            insert.setInt(2, srs);
            insert.setInt(3, srs);
            insert.setString(4, wkt);
            insert.executeUpdate();
        }
    }

    private static void bindBounds(PreparedStatement statement, int first, Bounds bounds) throws SQLException {
        statement.setDouble(first, bounds.minX());
        statement.setDouble(first + 1, bounds.minY());
        statement.setDouble(first + 2, bounds.maxX());
        statement.setDouble(first + 3, bounds.maxY());
    }

    private static void bind(PreparedStatement statement, int first, TileCoord tile) throws SQLException {
        statement.setInt(first, tile.z());
        statement.setInt(first + 1, tile.x());
        statement.setInt(first + 2, tile.y());
    }

    /** A table name as an SQL identifier, double-quoted. */
    private static String quote(String table) {
        return '"' + table.replace("\"", "\"\"") + '"';
    }

    private static Map<Integer, String> wkt() {
        Properties definitions = new Properties();
        try (InputStream in = GeoPackageTileStore.class.getResourceAsStream("srs-wkt1.properties")) {
            if (in == null) {
                throw new IllegalStateException("the build lacks srs-wkt1.properties");
            }
            definitions.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<Integer, String> wkt = new HashMap<>();
        definitions.forEach((code, definition) -> wkt.put(Integer.parseInt((String) code), (String) definition));
        return Map.copyOf(wkt);
    }
}
