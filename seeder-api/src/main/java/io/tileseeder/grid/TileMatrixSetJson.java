package io.tileseeder.grid;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a tile matrix set from the JSON encoding of the OGC Two Dimensional Tile Matrix Set standard
 * (OGC 17-083r4, 2.0): {@code id}, {@code crs} (a URI or URN, or an object holding {@code uri}),
 * {@code orderedAxes}, an optional {@code boundingBox}, and {@code tileMatrices}, each with {@code id},
 * {@code cellSize} or {@code scaleDenominator}, {@code pointOfOrigin} in the CRS's axis order,
 * {@code cornerOfOrigin} ({@code topLeft}, the default, or {@code bottomLeft}), and the tile and matrix sizes.
 *
 * <p>Refused, each with what is wrong and where: a CRS given as WKT (name it by its EPSG URI), a CRS other than
 * CRS84 without {@code orderedAxes} (proj4j does not know axis orders), {@code variableMatrixWidths}, a matrix
 * that does not cover the bounding box, and whatever {@link TileMatrixSet#of} refuses.
 */
public final class TileMatrixSetJson {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    private static final double PIXEL_METRES = 0.00028;
    private static final Set<String> NORTHING = Set.of("N", "Y", "LAT", "LATITUDE", "NORTHING");
    private static final Set<String> EASTING = Set.of("E", "X", "LON", "LONG", "LONGITUDE", "EASTING");

    private TileMatrixSetJson() {
    }

    /**
     * @param source what the JSON is (a file name), for the messages
     * @throws IllegalArgumentException naming the source, the set and the matrix of what is wrong
     */
    public static TileMatrixSet read(String json, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(source + ": not an OGC tile matrix set (a JSON object)");
        }
        String id = text(root, "id", source);
        String at = source + ": tile matrix set " + id;
        Crs crs = crs(root, at);
        JsonNode matrices = root.path("tileMatrices");
        if (!matrices.isArray() || matrices.isEmpty()) {
            throw new IllegalArgumentException(at + ": 'tileMatrices' must be a non-empty array");
        }
        List<TileMatrix> read = new ArrayList<>();
        for (JsonNode matrix : matrices) {
            read.add(matrix(matrix, crs, at));
        }
        TileMatrixSet set;
        try {
            set = TileMatrixSet.of(id, crs, read);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        if (root.has("boundingBox")) {
            Bounds box = boundingBox(root.get("boundingBox"), crs, at);
            for (TileMatrix matrix : set.matrices()) {
                Bounds covered = matrix.bounds();
                double tolerance = matrix.cellSize() * 1e-6;
                if (covered.minX() > box.minX() + tolerance || covered.minY() > box.minY() + tolerance
                        || covered.maxX() < box.maxX() - tolerance || covered.maxY() < box.maxY() - tolerance) {
                    throw new IllegalArgumentException(at + ", matrix " + matrix.id() + ": its tiles cover "
                            + covered + ", not the whole boundingBox " + box);
                }
            }
        }
        return set;
    }

    /**
     * The set in the same encoding: {@code id}, {@code crs} (its URI), {@code orderedAxes}, and each matrix with its
     * cell size, scale denominator (0.28 mm pixels), top-left point of origin in the CRS's axis order and sizes.
     */
    public static ObjectNode write(TileMatrixSet set) {
        ObjectNode root = JSON.createObjectNode();
        Crs crs = set.referenceSystem();
        root.put("id", set.id());
        root.put("crs", crs.uri());
        ArrayNode axes = root.putArray("orderedAxes");
        if (crs == Crs.CRS84) {
            axes.add("Lon").add("Lat");
        } else if (crs.northingFirst()) {
            axes.add("N").add("E");
        } else {
            axes.add("E").add("N");
        }
        ArrayNode matrices = root.putArray("tileMatrices");
        for (TileMatrix matrix : set.matrices()) {
            ObjectNode m = matrices.addObject();
            m.put("id", matrix.id());
            m.put("scaleDenominator", matrix.cellSize() * crs.metresPerUnit() / PIXEL_METRES);
            m.put("cellSize", matrix.cellSize());
            m.put("cornerOfOrigin", "topLeft");
            ArrayNode origin = m.putArray("pointOfOrigin");
            if (crs.northingFirst()) {
                origin.add(matrix.top()).add(matrix.left());
            } else {
                origin.add(matrix.left()).add(matrix.top());
            }
            m.put("tileWidth", matrix.tileWidth());
            m.put("tileHeight", matrix.tileHeight());
            m.put("matrixWidth", matrix.matrixWidth());
            m.put("matrixHeight", matrix.matrixHeight());
        }
        return root;
    }

    private static Crs crs(JsonNode root, String at) {
        JsonNode node = root.path("crs");
        String name;
        if (node.isTextual()) {
            name = node.asText();
        } else if (node.isObject() && node.path("uri").isTextual()) {
            name = node.get("uri").asText();
        } else if (node.isObject() && node.has("wkt")) {
            throw new IllegalArgumentException(at + ": a CRS given as WKT is not supported; name it by its URI "
                    + "(http://www.opengis.net/def/crs/EPSG/0/n)");
        } else {
            throw new IllegalArgumentException(at + ": 'crs' must be a CRS URI such as "
                    + "http://www.opengis.net/def/crs/EPSG/0/2056");
        }
        boolean northingFirst;
        JsonNode axes = root.path("orderedAxes");
        try {
            if (axes.isMissingNode() && Crs.of(name, false) == Crs.CRS84) {
                return Crs.CRS84;
            }
            northingFirst = northingFirst(axes, name, at);
            return Crs.of(name, northingFirst);
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith(at)) {
                throw e;
            }
            throw new IllegalArgumentException(at + ": crs " + e.getMessage(), e);
        }
    }

    private static boolean northingFirst(JsonNode axes, String crs, String at) {
        if (!axes.isArray() || axes.size() != 2 || !axes.get(0).isTextual() || !axes.get(1).isTextual()) {
            throw new IllegalArgumentException(at + ": 'orderedAxes' must name the two axes of " + crs
                    + " in its order, e.g. [\"E\", \"N\"] or [\"N\", \"E\"]: this product does not know the axis "
                    + "order of EPSG codes");
        }
        String first = axes.get(0).asText().toUpperCase(Locale.ROOT);
        String second = axes.get(1).asText().toUpperCase(Locale.ROOT);
        if (NORTHING.contains(first) && EASTING.contains(second)) {
            return true;
        }
        if (EASTING.contains(first) && NORTHING.contains(second)) {
            return false;
        }
        throw new IllegalArgumentException(at + ": 'orderedAxes' " + axes + " is not an easting and a northing "
                + "in some order (E, N, X, Y, Lon, Lat)");
    }

    private static TileMatrix matrix(JsonNode node, Crs crs, String set) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(set + ": each of 'tileMatrices' must be an object");
        }
        String id = text(node, "id", set + ", a matrix");
        String at = set + ", matrix " + id;
        JsonNode variable = node.path("variableMatrixWidths");
        if (variable.isArray() && !variable.isEmpty()) {
            throw new IllegalArgumentException(at + ": variableMatrixWidths are not supported; every row of a "
                    + "matrix must have matrixWidth tiles");
        }
        double cellSize;
        if (node.has("cellSize")) {
            cellSize = number(node, "cellSize", at);
            if (node.has("scaleDenominator")) {
                double fromScale = number(node, "scaleDenominator", at) * PIXEL_METRES / crs.metresPerUnit();
                if (Math.abs(fromScale - cellSize) > cellSize * 1e-3) {
                    throw new IllegalArgumentException(at + ": cellSize " + cellSize + " and scaleDenominator "
                            + node.get("scaleDenominator") + " disagree (that scale is a cell size of " + fromScale
                            + " at 0.28 mm a pixel)");
                }
            }
        } else if (node.has("scaleDenominator")) {
            cellSize = number(node, "scaleDenominator", at) * PIXEL_METRES / crs.metresPerUnit();
        } else {
            throw new IllegalArgumentException(at + ": needs a cellSize or a scaleDenominator");
        }
        int tileWidth = integer(node, "tileWidth", at);
        int tileHeight = integer(node, "tileHeight", at);
        int matrixWidth = integer(node, "matrixWidth", at);
        int matrixHeight = integer(node, "matrixHeight", at);
        double[] origin = point(node.path("pointOfOrigin"), crs, at + ", pointOfOrigin");
        String corner = node.path("cornerOfOrigin").asText("topLeft");
        double top = switch (corner) {
            case "topLeft" -> origin[1];
            case "bottomLeft" -> origin[1] + (double) matrixHeight * tileHeight * cellSize;
            default -> throw new IllegalArgumentException(at + ": cornerOfOrigin '" + corner
                    + "' is not one the standard defines (topLeft or bottomLeft)");
        };
        try {
            return new TileMatrix(id, cellSize, origin[0], top, tileWidth, tileHeight, matrixWidth, matrixHeight);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(set + ", " + e.getMessage(), e);
        }
    }

    private static Bounds boundingBox(JsonNode node, Crs crs, String set) {
        double[] lowerLeft = point(node.path("lowerLeft"), crs, set + ", boundingBox.lowerLeft");
        double[] upperRight = point(node.path("upperRight"), crs, set + ", boundingBox.upperRight");
        if (!(lowerLeft[0] < upperRight[0] && lowerLeft[1] < upperRight[1])) {
            throw new IllegalArgumentException(set + ": boundingBox's lowerLeft is not below and left of its "
                    + "upperRight");
        }
        return new Bounds(lowerLeft[0], lowerLeft[1], upperRight[0], upperRight[1]);
    }

    /** A point in the CRS's axis order, as {easting, northing}. */
    private static double[] point(JsonNode node, Crs crs, String at) {
        if (!node.isArray() || node.size() != 2 || !node.get(0).isNumber() || !node.get(1).isNumber()) {
            throw new IllegalArgumentException(at + ": must be two numbers in the CRS's axis order");
        }
        double first = node.get(0).asDouble();
        double second = node.get(1).asDouble();
        if (!Double.isFinite(first) || !Double.isFinite(second)) {
            throw new IllegalArgumentException(at + ": must be finite");
        }
        return crs.northingFirst() ? new double[] {second, first} : new double[] {first, second};
    }

    private static String text(JsonNode node, String field, String at) {
        JsonNode value = node.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException(at + ": '" + field + "' must be a non-empty string");
        }
        return value.asText();
    }

    private static double number(JsonNode node, String field, String at) {
        JsonNode value = node.path(field);
        if (!value.isNumber() || !(value.asDouble() > 0) || Double.isInfinite(value.asDouble())) {
            throw new IllegalArgumentException(at + ": '" + field + "' must be a positive number, got " + value);
        }
        return value.asDouble();
    }

    private static int integer(JsonNode node, String field, String at) {
        JsonNode value = node.path(field);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() <= 0) {
            throw new IllegalArgumentException(at + ": '" + field + "' must be a positive integer, got " + value);
        }
        return value.asInt();
    }
}
