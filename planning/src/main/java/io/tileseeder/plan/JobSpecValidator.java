package io.tileseeder.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.tileseeder.area.Coverages;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobArea;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns a {@link JobRequest} into a {@link JobSpec}, or refuses it with every field that is wrong and why,
 * before any work is done.
 */
public final class JobSpecValidator {

    /** Plans over an area kept for the jobs validated last: admitting and planning them reuse their count. */
    private static final int PLANS_KEPT = 4;

    private final LayerCatalog layers;
    private final JobLimits limits;
    private final Function<JobSpec, Optional<FieldError>> store;
    private final MetatilePlans plans = new MetatilePlans(PLANS_KEPT);

    /** A validator for a store that holds any job's tiles. */
    public JobSpecValidator(LayerCatalog layers, JobLimits limits) {
        this(layers, limits, job -> Optional.empty());
    }

    /** @param store why the store cannot hold a job's tiles ({@link io.tileseeder.port.TileStore#refuses}) */
    public JobSpecValidator(LayerCatalog layers, JobLimits limits, Function<JobSpec, Optional<FieldError>> store) {
        this.layers = layers;
        this.limits = limits;
        this.store = store;
    }

    /** The plans of the jobs this validator counted, for whoever plans them next. */
    public MetatilePlans plans() {
        return plans;
    }

    /** @throws InvalidJobException naming each invalid field */
    public JobSpec validate(JobRequest request) {
        List<FieldError> errors = new ArrayList<>();
        if (request == null) {
            throw new InvalidJobException(List.of(new FieldError("body", "a job is required")));
        }

        LayerInfo layer = null;
        if (request.layer() == null || request.layer().isBlank()) {
            errors.add(new FieldError("layer", "is required; known layers: " + layerNames()));
        } else {
            layer = layers.find(request.layer()).orElse(null);
            if (layer == null) {
                errors.add(new FieldError("layer", "unknown layer '" + request.layer() + "'; known layers: " + layerNames()));
            }
        }

        TileMatrixSet tms = tileMatrixSet(request.tileMatrixSet(), layer, errors);
        TileFormat format = format(request.format(), layer, errors);
        Mode mode = Mode.byId(Objects.requireNonNullElse(request.mode(), Mode.SEED.id())).orElse(null);
        if (mode == null) {
            errors.add(new FieldError("mode", "unknown mode '" + request.mode() + "'; one of: " + Arrays.stream(
                    Mode.values()).map(Mode::id).collect(Collectors.joining(", "))));
        }
        if (mode == Mode.PACK) {
            return pack(request, layer, tms, format, errors);
        }
        if (request.archive() != null) {
            errors.add(new FieldError("archive", "only applies to mode pack"));
        }
        int[] zoom = zoom(request.zoom(), layer, errors);
        int bboxCrsErrors = errors.size();
        boolean inSetCrs = inSetCrs(request, tms, errors);
        Bounds crsBbox = inSetCrs ? crsBbox(request.bbox(), tms, errors) : null;
        Bounds bbox = errors.size() > bboxCrsErrors ? null
                : inSetCrs ? tms.crs84Envelope(crsBbox) : bbox(request.bbox(), errors);
        MetatileSize metatile = metatile(request.metatile(), layer, errors);
        Map<String, String> labels = labels(request.labels(), errors);
        Map<String, List<String>> dimensions = layer == null ? Map.of() : dimensions(request.dimensions(), layer, errors);
        if (request.refreshBefore() != null && mode != Mode.RESEED) {
            errors.add(new FieldError("refreshBefore", "only applies to mode reseed"));
        }
        boolean hasArea = request.coverage() != null || request.tiles() != null;
        if (request.coverage() != null && request.tiles() != null) {
            errors.add(new FieldError("tiles", "a job takes a coverage or a tile list, not both"));
        }
        if (request.tiles() != null && request.bbox() != null) {
            errors.add(new FieldError("bbox", "a job from a tile list takes its tiles from the list; leave bbox out"));
        }
        if (tms != null) {
            fitsTheSet(tms, zoom, inSetCrs ? null : bbox, errors);
        }
        if (hasArea && (tms == null || tms.isQuad()) && metatile != null
                && !AreaPlan.isPowerOfTwoSquare(metatile.width(), metatile.height())) {
            errors.add(new FieldError("metatile", metatile.width() + "x" + metatile.height() + ": a job with a "
                    + "coverage or a tile list needs square metatiles of 1, 2, 4, 8 or 16 tiles a side"));
        }

        if (!errors.isEmpty()) {
            throw new InvalidJobException(errors);
        }
        JobArea area = request.coverage() != null ? coverage(request.coverage(), layer, bbox)
                : request.tiles() != null ? tileList(request.tiles(), tms, layer) : null;
        JobSpec spec = new JobSpec(layer.name(), tms, zoom[0], zoom[1], bbox, format, mode, metatile,
                request.refreshBefore(), Objects.requireNonNullElse(request.priority(), 0), labels, area, crsBbox,
                dimensions);
        Optional<FieldError> refused = store.apply(spec);
        if (refused.isPresent()) {
            throw new InvalidJobException(List.of(refused.get()));
        }
        OptionalLong tiles = plans.tileCount(spec, limits.maxTilesPerJob());
        if (tiles.isEmpty()) {
            long exact = area == null ? MetatilePlan.of(spec).tileCount() : -1;
            throw new InvalidJobException(List.of(new FieldError("zoom", "the job would have "
                    + (exact >= 0 ? exact + " tiles, more than" : "more tiles than") + " the limit of "
                    + limits.maxTilesPerJob() + " tiles per job" + (spec.combinationCount() > 1
                    ? " (" + spec.combinationCount() + " caches of its dimension values)" : "")
                    + "; lower zoom.max, narrow the " + (area == null ? "bbox" : "area") + " or split the job")));
        }
        if (tiles.getAsLong() == 0) {
            throw invalid("coverage", "holds no tile of " + tms.id() + " (WebMercatorQuad ends at latitude "
                    + "±85.0511°)");
        }
        return spec;
    }

    /**
     * The values of each of the layer's dimensions, in its order: those the job names (a value, an interval, or an
     * array of them), each checked and normalized, without repeats, else the dimension's default; at most
     * {@link JobLimits#maxCombinations} combinations of them.
     */
    private Map<String, List<String>> dimensions(Map<String, JsonNode> asked, LayerInfo layer,
                                                 List<FieldError> errors) {
        Map<String, JsonNode> byName = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (asked != null) {
            asked.forEach((name, value) -> {
                if (layer.dimensions().stream().noneMatch(d -> d.name().equalsIgnoreCase(name))) {
                    errors.add(new FieldError("dimensions." + name, "layer '" + layer.name() + "' has no dimension "
                            + name + (layer.dimensions().isEmpty() ? "; it has none" : "; its dimensions: "
                            + layer.dimensions().stream().map(Dimension::name).collect(Collectors.joining(", ")))));
                } else if (byName.put(name, value) != null) {
                    errors.add(new FieldError("dimensions." + name, "is named twice"));
                }
            });
        }
        Map<String, List<String>> dimensions = new LinkedHashMap<>();
        long combinations = 1;
        for (Dimension dimension : layer.dimensions()) {
            String field = "dimensions." + dimension.name();
            JsonNode value = byName.get(dimension.name());
            if (value == null || value.isNull()) {
                if (dimension.defaultValue() == null) {
                    errors.add(new FieldError(field, "is required: layer '" + layer.name() + "' has no default "
                            + dimension.name()));
                    return Map.of();
                }
                dimensions.put(dimension.name(), List.of(dimension.defaultValue()));
                continue;
            }
            List<JsonNode> items = new ArrayList<>();
            if (value.isArray()) {
                value.forEach(items::add);
            } else {
                items.add(value);
            }
            java.util.LinkedHashSet<String> values = new java.util.LinkedHashSet<>();
            try {
                for (JsonNode item : items) {
                    if (!item.isTextual() && !item.isNumber()) {
                        throw new IllegalArgumentException("must be a value, an interval min/max/resolution or an "
                                + "array of them, not " + item.getNodeType().name().toLowerCase(Locale.ROOT));
                    }
                    values.addAll(dimension.expand(item.asText(), limits.maxCombinations()));
                }
                if (values.isEmpty()) {
                    throw new IllegalArgumentException("names no value");
                }
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError(field, e.getMessage()));
                return Map.of();
            }
            combinations *= values.size();
            if (combinations > limits.maxCombinations()) {
                errors.add(new FieldError("dimensions", "the job would seed more than " + limits.maxCombinations()
                        + " caches (combinations of dimension values), the limit per job; name fewer values or "
                        + "split the job"));
                return Map.of();
            }
            dimensions.put(dimension.name(), List.copyOf(values));
        }
        return dimensions;
    }

    private JobArea coverage(JsonNode coverage, LayerInfo layer, Bounds bbox) {
        String name = null;
        String geojson;
        if (coverage.isTextual()) {
            name = coverage.textValue();
            geojson = layer.coverages().get(name);
            if (geojson == null) {
                throw invalid("coverage", "layer '" + layer.name() + "' has no coverage '" + name + "'; "
                        + (layer.coverages().isEmpty() ? "it names none"
                        : "its coverages: " + String.join(", ", new TreeSet<>(layer.coverages().keySet()))));
            }
        } else if (coverage.isObject()) {
            JsonNode crs = coverage.path("crs").path("properties").path("name");
            if (coverage.has("crs") && !Coverages.isCrs84(crs.asText())) {
                throw invalid("coverage.crs", "'" + crs.asText() + "' is not supported; a coverage is in CRS84 "
                        + "longitudes and latitudes (RFC 7946: leave crs out)");
            }
            geojson = coverage.toString();
        } else {
            throw invalid("coverage", "must be a GeoJSON object (Polygon, MultiPolygon, Feature or "
                    + "FeatureCollection) or the name of one of the layer's coverages");
        }
        try {
            // A layer's coverage is the operator's: the limit is for what clients send.
            int maxVertices = name == null ? limits.maxCoverageVertices() : Integer.MAX_VALUE;
            return new JobArea(JobArea.Kind.COVERAGE, name,
                    Coverages.write(Coverages.parse(geojson, bbox, maxVertices)));
        } catch (Coverages.InvalidCoverageException e) {
            throw invalid("coverage", e.getMessage());
        }
    }

    private JobArea tileList(JsonNode tiles, TileMatrixSet tms, LayerInfo layer) {
        try {
            return new JobArea(JobArea.Kind.TILES, null, TileLists.write(
                    TileLists.parse(TileLists.text(tiles), tms, layer.maxZoom(tms), limits.maxListTiles())));
        } catch (TileLists.InvalidTileListException e) {
            throw invalid("tiles", e.getMessage());
        }
    }

    /**
     * A pack job: one archive from the whole finished cache of a layer, set and format. What would choose tiles (zoom,
     * bbox, an area, dimension values, metatiles) is refused, as is what a PMTiles archive cannot hold.
     */
    private JobSpec pack(JobRequest request, LayerInfo layer, TileMatrixSet tms, TileFormat format,
                         List<FieldError> errors) {
        Map<String, Object> choosers = new LinkedHashMap<>();
        choosers.put("zoom", request.zoom());
        choosers.put("bbox", request.bbox());
        choosers.put("bboxCrs", request.bboxCrs());
        choosers.put("metatile", request.metatile());
        choosers.put("refreshBefore", request.refreshBefore());
        choosers.put("coverage", request.coverage());
        choosers.put("tiles", request.tiles());
        choosers.put("dimensions", request.dimensions());
        choosers.forEach((field, value) -> {
            if (value != null) {
                errors.add(new FieldError(field, "a pack job packs every tile of the finished cache; leave " + field
                        + " out"));
            }
        });
        String archive = request.archive();
        if (archive == null || archive.isBlank()) {
            errors.add(new FieldError("archive", "is required with mode pack: a path or a store URL (s3://, az://, "
                    + "gs://) ending in .pmtiles"));
        } else if (!archive.toLowerCase(Locale.ROOT).endsWith(".pmtiles")) {
            errors.add(new FieldError("archive", "'" + archive + "' does not end in .pmtiles"));
        } else if (archive.contains("://") && !archive.matches("(s3|az|gs)://[^/]+/.+")) {
            errors.add(new FieldError("archive", "'" + archive + "' is neither a path nor a store URL "
                    + "s3://, az:// or gs://BUCKET/NAME.pmtiles"));
        }
        if (tms != null && tms != TileMatrixSet.WEB_MERCATOR_QUAD) {
            errors.add(new FieldError("tileMatrixSet", "a PMTiles archive holds tiles of WebMercatorQuad only, not "
                    + tms.id()));
        }
        if (format == TileFormat.JPEG_PNG) {
            errors.add(new FieldError("format", "a PMTiles archive holds one image type; jpeg-png mixes two"));
        }
        if (layer != null && !layer.dimensions().isEmpty()) {
            errors.add(new FieldError("layer", "layer '" + layer.name() + "' has dimensions, each value a cache of "
                    + "its own; a PMTiles archive holds one cache"));
        }
        Map<String, String> labels = labels(request.labels(), errors);
        if (!errors.isEmpty()) {
            throw new InvalidJobException(errors);
        }
        JobSpec spec = new JobSpec(layer.name(), tms, layer.minZoom(), layer.maxZoom(tms), Bounds.WORLD_CRS84, format,
                Mode.PACK, new MetatileSize(1, 1), null, Objects.requireNonNullElse(request.priority(), 0), labels,
                null, null, Map.of(), archive);
        Optional<FieldError> refused = store.apply(spec);
        if (refused.isPresent()) {
            throw new InvalidJobException(List.of(refused.get()));
        }
        return spec;
    }

    private static InvalidJobException invalid(String field, String message) {
        return new InvalidJobException(List.of(new FieldError(field, message)));
    }

    private TileMatrixSet tileMatrixSet(String id, LayerInfo layer, List<FieldError> errors) {
        TileMatrixSet tms = TileMatrixSet.byId(Objects.requireNonNullElse(id, TileMatrixSet.WEB_MERCATOR_QUAD.id())).orElse(null);
        if (tms == null || layer != null && !layer.tileMatrixSets().contains(tms)) {
            String offered = layer == null ? "" : "; layer '" + layer.name() + "' offers: " + layer.tileMatrixSets()
                    .stream().map(TileMatrixSet::id).sorted().collect(Collectors.joining(", "));
            errors.add(new FieldError("tileMatrixSet", (tms == null ? "unknown tile matrix set '" + id + "'"
                    : "layer '" + layer.name() + "' is not configured for " + tms.id()) + offered));
            return null;
        }
        return tms;
    }

    /** A zoom within the set's matrices, a bbox with a point in its extent. */
    private static void fitsTheSet(TileMatrixSet tms, int[] zoom, Bounds bbox, List<FieldError> errors) {
        if (zoom != null && zoom[1] > tms.maxZoom()) {
            errors.add(new FieldError("zoom.max", zoom[1] + " is beyond the last matrix of " + tms.id()
                    + ": its zoom levels are 0.." + tms.maxZoom()));
        }
        if (bbox != null && !tms.overlaps(bbox)) {
            errors.add(new FieldError("bbox", bbox + " lies outside the extent of " + tms.id() + " (" + tms.crs()
                    + " " + tms.crsBounds() + ")"));
        }
    }

    private TileFormat format(String id, LayerInfo layer, List<FieldError> errors) {
        String known = Arrays.stream(TileFormat.values()).map(TileFormat::id).collect(Collectors.joining(", "));
        TileFormat format = TileFormat.byId(Objects.requireNonNullElse(id, TileFormat.PNG.id())).orElse(null);
        if (format == null) {
            errors.add(new FieldError("format", "unknown format '" + id + "'; one of: " + known));
        } else if (layer != null && !layer.formats().contains(format)) {
            errors.add(new FieldError("format", "layer '" + layer.name() + "' is not configured for " + format.id()));
        }
        return format;
    }

    private static int[] zoom(JobRequest.Zoom zoom, LayerInfo layer, List<FieldError> errors) {
        if (zoom == null) {
            errors.add(new FieldError("zoom", "is required, e.g. {\"min\": 0, \"max\": 5}"));
            return null;
        }
        int before = errors.size();
        if (zoom.min() == null) {
            errors.add(new FieldError("zoom.min", "is required"));
        }
        if (zoom.max() == null) {
            errors.add(new FieldError("zoom.max", "is required"));
        }
        if (errors.size() > before) {
            return null;
        }
        int min = layer == null ? 0 : layer.minZoom();
        int max = layer == null ? TileMatrixSet.MAX_ZOOM : layer.maxZoom();
        String range = layer == null ? "" : " of layer '" + layer.name() + "'";
        if (zoom.min() < min || zoom.min() > max) {
            errors.add(new FieldError("zoom.min", zoom.min() + " is outside the zoom range " + min + ".." + max + range));
        }
        if (zoom.max() < min || zoom.max() > max) {
            errors.add(new FieldError("zoom.max", zoom.max() + " is outside the zoom range " + min + ".." + max + range));
        }
        if (zoom.min() > zoom.max()) {
            errors.add(new FieldError("zoom", "min " + zoom.min() + " is greater than max " + zoom.max()));
        }
        return errors.size() > before ? null : new int[] {zoom.min(), zoom.max()};
    }

    private static Bounds bbox(List<Double> bbox, List<FieldError> errors) {
        if (bbox == null) {
            return Bounds.WORLD_CRS84;
        }
        if (bbox.size() != 4 || bbox.stream().anyMatch(Objects::isNull)) {
            errors.add(new FieldError("bbox", "must be four numbers [minLon, minLat, maxLon, maxLat], got " + bbox));
            return null;
        }
        double minX = bbox.get(0);
        double minY = bbox.get(1);
        double maxX = bbox.get(2);
        double maxY = bbox.get(3);
        int before = errors.size();
        String[] names = {"minLon", "minLat", "maxLon", "maxLat"};
        double[] values = {minX, minY, maxX, maxY};
        for (int i = 0; i < 4; i++) {
            double limit = i % 2 == 0 ? 180 : 90;
            if (!(Math.abs(values[i]) <= limit)) {
                errors.add(new FieldError("bbox[" + i + "]", names[i] + " " + values[i] + " is outside -"
                        + (int) limit + ".." + (int) limit));
            }
        }
        if (errors.size() > before) {
            return null;
        }
        if (minX > maxX) {
            errors.add(new FieldError("bbox", "is inverted: minLon " + minX + " is greater than maxLon " + maxX));
        }
        if (minY > maxY) {
            errors.add(new FieldError("bbox", "is inverted: minLat " + minY + " is greater than maxLat " + maxY));
        }
        return errors.size() > before ? null : new Bounds(minX, minY, maxX, maxY);
    }

    /**
     * Whether the request's bbox is in the set's CRS: {@code bboxCrs} names it (CRS84, the default, is not). A
     * {@code bboxCrs} that is wrong adds its error, and the bbox is not read.
     */
    private static boolean inSetCrs(JobRequest request, TileMatrixSet tms, List<FieldError> errors) {
        if (request.bboxCrs() == null) {
            return false;
        }
        Crs crs;
        try {
            crs = Crs.of(request.bboxCrs(), false);
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("bboxCrs", e.getMessage()));
            return false;
        }
        if (crs == Crs.CRS84 || tms == null) {
            return false;
        }
        int before = errors.size();
        if (!crs.code().equals(tms.crs())) {
            errors.add(new FieldError("bboxCrs", "'" + request.bboxCrs() + "' is neither CRS84 nor the CRS of "
                    + tms.id() + ", " + tms.crs()));
        }
        if (request.bbox() == null) {
            errors.add(new FieldError("bboxCrs", "names the CRS of bbox; give a bbox with it"));
        }
        if (request.coverage() != null || request.tiles() != null) {
            errors.add(new FieldError("bboxCrs", "a job with a coverage or a tile list takes a bbox in CRS84"));
        }
        return errors.size() == before;
    }

    /** A bbox in the set's CRS, in that CRS's axis order; as easting and northing. */
    private static Bounds crsBbox(List<Double> bbox, TileMatrixSet tms, List<FieldError> errors) {
        boolean northingFirst = tms.referenceSystem().northingFirst();
        String order = northingFirst ? "[minNorthing, minEasting, maxNorthing, maxEasting]"
                : "[minEasting, minNorthing, maxEasting, maxNorthing]";
        if (bbox.size() != 4 || bbox.stream().anyMatch(v -> v == null || !Double.isFinite(v))) {
            errors.add(new FieldError("bbox", "must be four numbers " + order + " in " + tms.crs() + ", got "
                    + bbox));
            return null;
        }
        int x = northingFirst ? 1 : 0;
        int y = 1 - x;
        if (bbox.get(x) >= bbox.get(x + 2) || bbox.get(y) >= bbox.get(y + 2)) {
            errors.add(new FieldError("bbox", bbox + " is empty or inverted; it is " + order + " in " + tms.crs()));
            return null;
        }
        Bounds crsBbox = new Bounds(bbox.get(x), bbox.get(y), bbox.get(x + 2), bbox.get(y + 2));
        Bounds extent = tms.crsBounds();
        if (crsBbox.maxX() <= extent.minX() || crsBbox.minX() >= extent.maxX() || crsBbox.maxY() <= extent.minY()
                || crsBbox.minY() >= extent.maxY()) {
            errors.add(new FieldError("bbox", bbox + " lies outside the extent of " + tms.id() + " (" + tms.crs()
                    + " " + extent + ")"));
            return null;
        }
        return crsBbox;
    }

    private static MetatileSize metatile(JobRequest.Metatile metatile, LayerInfo layer, List<FieldError> errors) {
        if (metatile == null) {
            return layer == null ? MetatileSize.DEFAULT : layer.metatile();
        }
        if (metatile.width() == null || metatile.height() == null) {
            errors.add(new FieldError("metatile", "needs both width and height"));
            return null;
        }
        MetatileSize size;
        try {
            size = new MetatileSize(metatile.width(), metatile.height());
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("metatile", e.getMessage()));
            return null;
        }
        if (layer != null && !LayerInfo.fits(size, layer.maxMetatile())) {
            errors.add(new FieldError("metatile", size.width() + "x" + size.height() + " is larger than layer '"
                    + layer.name() + "' allows: at most " + layer.maxMetatile().width() + "x"
                    + layer.maxMetatile().height() + " tiles (its upstream limits the image size)"));
            return null;
        }
        return size;
    }

    private Map<String, String> labels(Map<String, String> labels, List<FieldError> errors) {
        if (labels == null) {
            return Map.of();
        }
        if (labels.size() > limits.maxLabels()) {
            errors.add(new FieldError("labels", labels.size() + " labels, more than the limit of " + limits.maxLabels()));
        }
        labels.forEach((key, value) -> {
            if (key.isEmpty() || key.length() > JobLimits.MAX_LABEL_LENGTH
                    || value == null || value.length() > JobLimits.MAX_LABEL_LENGTH) {
                errors.add(new FieldError("labels." + key,
                        "keys and values must be 1 to " + JobLimits.MAX_LABEL_LENGTH + " characters"));
            }
        });
        return labels;
    }

    private String layerNames() {
        return layers.all().stream().map(LayerInfo::name).sorted().collect(Collectors.joining(", "));
    }
}
