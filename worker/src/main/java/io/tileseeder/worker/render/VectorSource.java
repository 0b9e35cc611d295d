package io.tileseeder.worker.render;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.index.strtree.STRtree;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.geojson.GeoJsonReader;

/**
 * The features of a {@code vector} layer: read once from GeoJSON (CRS84), then projected into each tile
 * matrix set's CRS on first use and indexed with an STRtree, so a metatile finds its features by envelope.
 * Thread-safe; the per-CRS indexes are built once and then only read.
 */
public final class VectorSource {

    private final List<Geometry> features;
    private final Map<TileMatrixSet, STRtree> indexes = new EnumMap<>(TileMatrixSet.class);

    private VectorSource(List<Geometry> features) {
        this.features = List.copyOf(features);
    }

    /** Reads the layer's GeoJSON files; fails naming the file that cannot be read or parsed. */
    public static VectorSource load(List<LayerConfig.DataFile> files) throws IOException {
        List<Geometry> features = new ArrayList<>();
        GeoJsonReader reader = new GeoJsonReader();
        for (LayerConfig.DataFile file : files) {
            String json = read(file);
            Geometry geometry;
            try {
                geometry = reader.read(json);
            } catch (ParseException | RuntimeException e) {
                throw new IOException("cannot parse GeoJSON " + file.location() + ": " + e.getMessage(), e);
            }
            if (geometry instanceof GeometryCollection collection
                    && collection.getGeometryType().equals(Geometry.TYPENAME_GEOMETRYCOLLECTION)) {
                for (int i = 0; i < collection.getNumGeometries(); i++) {
                    features.add(collection.getGeometryN(i));
                }
            } else {
                features.add(geometry);
            }
        }
        return new VectorSource(features);
    }

    private static String read(LayerConfig.DataFile file) throws IOException {
        if (file.path() != null) {
            try {
                return Files.readString(file.path(), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new IOException("cannot read data file " + file.location() + ": no such file", e);
            } catch (AccessDeniedException e) {
                throw new IOException("cannot read data file " + file.location() + ": permission denied", e);
            } catch (IOException e) {
                throw new IOException("cannot read data file " + file.location() + ": " + e.getMessage(), e);
            }
        }
        try (InputStream in = VectorSource.class.getClassLoader().getResourceAsStream(file.resource())) {
            if (in == null) {
                throw new IOException("data file " + file.location() + " is not bundled");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    public int featureCount() {
        return features.size();
    }

    /** The features whose envelope, in the matrix set's CRS, intersects {@code bounds}. */
    @SuppressWarnings("unchecked")
    public List<Geometry> query(TileMatrixSet tms, Bounds bounds) {
        return index(tms).query(new Envelope(bounds.minX(), bounds.maxX(), bounds.minY(), bounds.maxY()));
    }

    private synchronized STRtree index(TileMatrixSet tms) {
        return indexes.computeIfAbsent(tms, this::build);
    }

    private STRtree build(TileMatrixSet tms) {
        STRtree tree = new STRtree();
        for (Geometry feature : features) {
            Geometry projected = feature.copy();
            projected.apply(new Projection(tms));
            projected.geometryChanged();
            tree.insert(projected.getEnvelopeInternal(), projected);
        }
        tree.build();
        return tree;
    }

    private record Projection(TileMatrixSet tms) implements CoordinateSequenceFilter {
        @Override
        public void filter(CoordinateSequence seq, int i) {
            double[] xy = tms.project(seq.getX(i), seq.getY(i));
            seq.setOrdinate(i, Coordinate.X, xy[0]);
            seq.setOrdinate(i, Coordinate.Y, xy[1]);
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public boolean isGeometryChanged() {
            return true;
        }
    }
}
