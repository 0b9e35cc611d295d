package io.tileseeder.render;

import io.tileseeder.area.Projection;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private final Map<TileMatrixSet, STRtree> indexes = new HashMap<>();

    private VectorSource(List<Geometry> features) {
        this.features = List.copyOf(features);
    }

    /** Reads the layer's GeoJSON files; fails naming the file that cannot be read or parsed. */
    public static VectorSource load(List<LayerConfig.DataFile> files) throws IOException {
        List<Geometry> features = new ArrayList<>();
        GeoJsonReader reader = new GeoJsonReader();
        for (LayerConfig.DataFile file : files) {
            String json = file.read();
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
            Geometry projected = Projection.project(feature, tms);
            tree.insert(projected.getEnvelopeInternal(), projected);
        }
        tree.build();
        return tree;
    }
}
