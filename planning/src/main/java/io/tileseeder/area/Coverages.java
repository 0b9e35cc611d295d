package io.tileseeder.area;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.grid.Bounds;
import io.tileseeder.job.JsonProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.geojson.GeoJsonReader;
import org.locationtech.jts.io.geojson.GeoJsonWriter;
import org.locationtech.jts.operation.union.UnaryUnionOp;
import org.locationtech.jts.precision.GeometryPrecisionReducer;

/**
 * Coverages: polygonal areas in CRS84 from GeoJSON, as a job or a layer gives them (a Polygon, a MultiPolygon, a
 * Feature of one, or a FeatureCollection of them, RFC 7946). {@link #parse} checks a coverage and makes it one valid
 * geometry: rings that cross themselves are repaired (JTS GeometryFixer), overlapping and adjacent polygons are
 * merged (a union), and the result is clipped to the job's bbox.
 */
public final class Coverages {

    /** Names of CRS84 a legacy GeoJSON {@code crs} member may give; GeoJSON coordinates are longitude, latitude. */
    private static final Set<String> CRS84_NAMES = Set.of("urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84",
            "CRS84", "OGC:CRS84", "EPSG:4326", "urn:ogc:def:crs:EPSG::4326");
    /** Seven decimals of a degree: about a centimetre, finer than any tile. */
    private static final int DECIMALS = 7;
    /** The grid of {@link #DECIMALS}: a geometry snapped to it stays valid, and is written exactly. */
    private static final PrecisionModel GRID = new PrecisionModel(1e7);
    private static final GeometryFactory FACTORY = new GeometryFactory(new PrecisionModel(), 4326);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Coverages() {
    }

    /** A coverage that is not one: what is wrong with it. */
    public static final class InvalidCoverageException extends IllegalArgumentException {
        public InvalidCoverageException(String message) {
            super(message);
        }
    }

    /** The names of CRS84 a {@code crs} member may give. */
    public static boolean isCrs84(String name) {
        return CRS84_NAMES.contains(name);
    }

    /**
     * The coverage of a GeoJSON text as one valid polygonal geometry, clipped to {@code bbox}.
     *
     * @throws InvalidCoverageException if it is not GeoJSON, holds anything but polygons, has a coordinate outside
     *                                  CRS84, more than {@code maxVertices} vertices, or nothing inside the bbox
     */
    public static Geometry parse(String geojson, Bounds bbox, int maxVertices) {
        try {
            GeoJsonShape.check(JSON.readTree(geojson), maxVertices);
        } catch (JsonProcessingException e) {
            throw new InvalidCoverageException("cannot be read: " + JsonProblems.reason(e, "the GeoJSON"));
        }
        Geometry read;
        try {
            read = new GeoJsonReader(FACTORY).read(geojson);
        } catch (ParseException | RuntimeException e) {
            throw new InvalidCoverageException("is not GeoJSON this server reads: " + e.getMessage());
        }
        List<Geometry> polygons = new ArrayList<>();
        collectPolygons(read, polygons);
        Geometry union = UnaryUnionOp.union(polygons.stream().map(GeometryFixer::fix).toList(), FACTORY);
        if (union == null || union.getArea() == 0) {
            throw new InvalidCoverageException("has no polygon with an area");
        }
        Geometry clipped = GeometryPrecisionReducer.reduce(union.intersection(FACTORY.toGeometry(
                new Envelope(bbox.minX(), bbox.maxX(), bbox.minY(), bbox.maxY()))), GRID);
        List<Geometry> areas = new ArrayList<>();
        collectPolygons(clipped, areas);
        areas.removeIf(polygon -> polygon.getArea() == 0);
        if (areas.isEmpty()) {
            throw new InvalidCoverageException("has no area inside the job's bbox " + bbox.minX() + ","
                    + bbox.minY() + "," + bbox.maxX() + "," + bbox.maxY());
        }
        Geometry coverage = FACTORY.buildGeometry(areas);
        // The normal form (rings in a fixed order, each from its smallest point) makes the text a function of the
        // area alone: the same coverage read again is the same job.
        coverage.normalize();
        return coverage;
    }

    /** A coverage {@link #write} made. */
    public static Geometry read(String normalised) {
        try {
            return new GeoJsonReader(FACTORY).read(normalised);
        } catch (ParseException e) {
            throw new IllegalStateException("a stored coverage does not parse: " + e.getMessage(), e);
        }
    }

    /** The geometry as a GeoJSON Polygon or MultiPolygon, coordinates rounded to about a centimetre. */
    public static String write(Geometry coverage) {
        GeoJsonWriter writer = new GeoJsonWriter(DECIMALS);
        writer.setEncodeCRS(false);
        return writer.write(coverage);
    }

    /** Adds the polygons (the only geometries {@link GeoJsonShape} lets through, and what a clip leaves with them). */
    private static void collectPolygons(Geometry geometry, List<Geometry> into) {
        if (geometry instanceof Polygon polygon) {
            if (!polygon.isEmpty()) {
                into.add(polygon);
            }
        } else if (geometry instanceof GeometryCollection collection) {
            for (int i = 0; i < collection.getNumGeometries(); i++) {
                collectPolygons(collection.getGeometryN(i), into);
            }
        }
    }
}
