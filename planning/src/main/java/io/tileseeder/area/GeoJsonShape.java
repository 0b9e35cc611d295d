package io.tileseeder.area;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.area.Coverages.InvalidCoverageException;

/**
 * Checks that a GeoJSON tree is a coverage before JTS reads it, so that a mistake is named with where it is
 * ({@code features[1].geometry.coordinates[0][3]}) rather than by the reader's exception, and counts its vertices
 * on the way, so that a coverage over the limit is refused before JTS builds it.
 */
final class GeoJsonShape {

    private static final String TYPES = "FeatureCollection, Feature, Polygon, MultiPolygon or GeometryCollection";

    private final int maxVertices;
    private int vertices;

    private GeoJsonShape(int maxVertices) {
        this.maxVertices = maxVertices;
    }

    /** @throws InvalidCoverageException naming the first mistake and where it is */
    static void check(JsonNode root, int maxVertices) {
        GeoJsonShape shape = new GeoJsonShape(maxVertices);
        shape.object(root, "");
        if (shape.vertices > maxVertices) {
            throw new InvalidCoverageException("has " + shape.vertices + " vertices, more than the limit of "
                    + maxVertices + "; simplify it");
        }
    }

    private void object(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw shape(path, "must be a GeoJSON object");
        }
        JsonNode type = node.get("type");
        if (type == null || !type.isTextual()) {
            throw shape(path + "type", "must be " + TYPES);
        }
        switch (type.textValue()) {
            case "FeatureCollection" -> {
                JsonNode features = array(node.get("features"), path + "features");
                for (int i = 0; i < features.size(); i++) {
                    feature(features.get(i), path + "features[" + i + "]");
                }
            }
            case "Feature" -> feature(node, path);
            case "GeometryCollection" -> {
                JsonNode geometries = array(node.get("geometries"), path + "geometries");
                for (int i = 0; i < geometries.size(); i++) {
                    object(geometries.get(i), path + "geometries[" + i + "].");
                }
            }
            case "Polygon" -> polygon(node.get("coordinates"), path + "coordinates");
            case "MultiPolygon" -> {
                JsonNode polygons = array(node.get("coordinates"), path + "coordinates");
                for (int i = 0; i < polygons.size(); i++) {
                    polygon(polygons.get(i), path + "coordinates[" + i + "]");
                }
            }
            case "Point", "MultiPoint", "LineString", "MultiLineString" -> throw new InvalidCoverageException("holds a "
                    + type.textValue() + (path.isEmpty() ? "" : " at " + path.substring(0, path.length() - 1))
                    + ", which has no area; a coverage holds Polygons and MultiPolygons");
            default -> throw shape(path + "type", "'" + type.textValue() + "' is not " + TYPES);
        }
    }

    private void feature(JsonNode node, String path) {
        if (node == null || !node.isObject() || !"Feature".equals(node.path("type").textValue())) {
            throw shape(path, "must be a Feature");
        }
        JsonNode geometry = node.get("geometry");
        if (geometry == null || geometry.isNull()) {
            throw shape(path + ".geometry", "is missing; a Feature of a coverage holds a Polygon or a MultiPolygon");
        }
        object(geometry, path + ".geometry.");
    }

    private void polygon(JsonNode node, String path) {
        JsonNode rings = array(node, path);
        if (rings.isEmpty()) {
            throw shape(path, "must hold at least the outer ring");
        }
        for (int r = 0; r < rings.size(); r++) {
            String at = path + "[" + r + "]";
            JsonNode ring = array(rings.get(r), at);
            if (ring.size() < 4) {
                throw shape(at, "a ring needs at least 4 positions, the last the same as the first; it has "
                        + ring.size());
            }
            for (int p = 0; p < ring.size(); p++) {
                position(ring.get(p), at + "[" + p + "]");
            }
            JsonNode first = ring.get(0);
            JsonNode last = ring.get(ring.size() - 1);
            if (first.get(0).doubleValue() != last.get(0).doubleValue()
                    || first.get(1).doubleValue() != last.get(1).doubleValue()) {
                throw shape(at, "a ring must end at the position it starts from");
            }
        }
    }

    private void position(JsonNode node, String path) {
        if (node == null || !node.isArray() || node.size() < 2 || !node.get(0).isNumber() || !node.get(1).isNumber()) {
            throw shape(path, "a position is [longitude, latitude], two numbers");
        }
        double x = node.get(0).doubleValue();
        double y = node.get(1).doubleValue();
        if (!(x >= -180 && x <= 180 && y >= -90 && y <= 90)) {
            throw new InvalidCoverageException("has the point (" + x + ", " + y + ") outside CRS84 at " + path
                    + ": coordinates are longitude -180..180, then latitude -90..90");
        }
        vertices++;
    }

    private static JsonNode array(JsonNode node, String path) {
        if (node == null || !node.isArray()) {
            throw shape(path, "must be an array");
        }
        return node;
    }

    private static InvalidCoverageException shape(String path, String problem) {
        String at = path.endsWith(".") ? path.substring(0, path.length() - 1) : path;
        return new InvalidCoverageException("is not GeoJSON this server reads: " + (at.isEmpty() ? "" : at + ": ")
                + problem);
    }
}
