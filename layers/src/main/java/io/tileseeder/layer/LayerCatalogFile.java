package io.tileseeder.layer;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tileseeder.area.Coverages;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileMatrixSetJson;
import io.tileseeder.job.Digests;
import io.tileseeder.job.JsonProblems;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.TileFormat;
import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the layer configuration file (YAML). The format, with defaults:
 *
 * <pre>{@code
 * tileMatrixSetFiles: [grids/swiss.json]   # OGC tile matrix set JSON (17-083r4), relative to this file
 * layers:
 *   - name: world                    # required; [A-Za-z0-9_-]+, used in tile paths
 *     title: World countries         # default: the name
 *     attribution: Natural Earth     # shown by map clients
 *     zoom: {min: 0, max: 14}        # default 0..18
 *     tileMatrixSets: [WebMercatorQuad, WorldCRS84Quad]   # default: these two; any well-known set's id,
 *                                                         # a tileMatrixSetFiles set's, or "*": every well-known
 *     formats: [png, jpeg]           # default: all of png, png8, jpeg, jpeg-png, webp, webp-lossless
 *     metatile: {width: 4, height: 4}
 *     gutter: 16                     # pixels around each metatile, 0..256
 *     emptyTiles: skip               # skip | store
 *     background: "#ffffff"          # behind JPEG tiles; #rrggbb or #rrggbbaa
 *     pngLevel: 1                    # deflate level 0..9
 *     jpegQuality: 0.85              # 0..1, also of the JPEG tiles of jpeg-png
 *     webpQuality: 0.75              # 0..1, lossy WebP (libwebp's 75)
 *     source:
 *       type: vector                 # GeoJSON features drawn with Java2D
 *       data: [world/countries.geojson]   # relative to this file; classpath:PATH for bundled data
 *     coverages:                     # areas a job may name as its coverage: GeoJSON Polygons or
 *       africa: world/africa.geojson #   MultiPolygons (or Features of them) in CRS84, relative to this file
 *     dimensions:                    # wms only: request parameters whose every value is a cache of its own
 *       - name: TIME                 # TIME, ELEVATION, STYLES, DIM_*, or any vendor parameter of the upstream
 *         type: time                 # time | number | text; default: time for TIME, number for ELEVATION
 *         values: ["2026-11-01T00:00Z/2026-12-01T00:00Z/PT5M"]   # values, and min/max[/resolution] intervals
 *         pattern: "[a-z]+"          # text only: a regular expression every value matches whole
 *         default: "2026-11-26T12:05Z"   # the value of a job that names none; without it, a job must name one
 *         retention: {keep: 288, newerThan: P1D}   # caches kept once a job succeeds: the last 288 values, and
 *                                                  # (time only) those less than a day old; others are deleted
 *     style:                         # rules applied in order; each draws fill then stroke
 *       - zoom: {min: 0, max: 24}
 *         fill: "#f2efe9"
 *         stroke: "#a0a0a0"
 *         strokeWidth: 1.0
 *         opacity: 1.0
 * }</pre>
 *
 * Every mistake is reported with the file and the layer it is in.
 */
public final class LayerCatalogFile {

    /** The bundled catalogue with the {@code world} layer. */
    public static final String BUNDLED = "layers/layers.yaml";

    private static final String CLASSPATH = "classpath:";
    /** In a layer's tileMatrixSets: every well-known set of the OGC registry. */
    private static final String ALL_WELL_KNOWN = "*";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    /** The most dimensions a layer may have: each is a level of folders of its caches. */
    private static final int MAX_DIMENSIONS = 4;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY).build();

    private LayerCatalogFile() {
    }

    /**
     * Reads a catalogue file; data paths in it are relative to its folder, or name data bundled with the application
     * as {@code classpath:PATH} (the world layer's: {@code classpath:layers/world/countries.geojson}).
     */
    public static LayerCatalogConfig read(Path file) {
        if (Files.isDirectory(file)) {
            throw new LayerConfigException("layer configuration " + file + " is a folder, not a YAML file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            Path folder = file.toAbsolutePath().getParent();
            return parse(in, file.toString(), data -> data.startsWith(CLASSPATH)
                    ? LayerConfig.DataFile.resource(data.substring(CLASSPATH.length()))
                    : LayerConfig.DataFile.file(folder.resolve(data).normalize()));
        } catch (NoSuchFileException e) {
            throw new LayerConfigException("layer configuration " + file + " does not exist");
        } catch (IOException e) {
            throw new LayerConfigException("cannot read layer configuration " + file + ": " + e.getMessage());
        }
    }

    /** Reads the catalogue bundled with the application. */
    public static LayerCatalogConfig bundled() {
        String folder = BUNDLED.substring(0, BUNDLED.lastIndexOf('/') + 1);
        try (InputStream in = LayerCatalogFile.class.getClassLoader().getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new LayerConfigException("the bundled layer configuration " + BUNDLED + " is missing");
            }
            return parse(in, CLASSPATH + BUNDLED, data -> LayerConfig.DataFile.resource(folder + data));
        } catch (IOException e) {
            throw new LayerConfigException("cannot read the bundled layer configuration: " + e.getMessage());
        }
    }

    private static LayerCatalogConfig parse(InputStream in, String source,
                                            java.util.function.Function<String, LayerConfig.DataFile> resolve)
            throws IOException {
        RawCatalog raw;
        try {
            raw = YAML.readValue(in, RawCatalog.class);
        } catch (UnrecognizedPropertyException e) {
            throw new LayerConfigException(source + ": unknown key '" + e.getPropertyName() + "' at "
                    + path(e) + "; known keys: " + e.getKnownPropertyIds());
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof com.fasterxml.jackson.core.JacksonException syntax) {
                throw new LayerConfigException(source + " is not valid YAML: " + oneLine(syntax));
            }
            throw new LayerConfigException(source + ": " + path(e) + ": " + JsonProblems.reason(e, "the YAML"));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new LayerConfigException(source + " is not valid YAML: " + oneLine(e));
        }
        if (raw == null || raw.layers() == null || raw.layers().isEmpty()) {
            throw new LayerConfigException(source + ": no layers configured (expected a 'layers:' list)");
        }
        if (raw.tileMatrixSetFiles() != null) {
            for (int i = 0; i < raw.tileMatrixSetFiles().size(); i++) {
                registerTileMatrixSet(resolve.apply(raw.tileMatrixSetFiles().get(i)),
                        source + ": tileMatrixSetFiles[" + i + "]");
            }
        }
        List<LayerConfig> layers = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < raw.layers().size(); i++) {
            LayerConfig layer = toLayer(raw.layers().get(i), source + ": layers[" + i + "]", resolve);
            if (!names.add(layer.name())) {
                throw new LayerConfigException(source + ": layer name '" + layer.name() + "' is used twice");
            }
            layers.add(layer);
        }
        return new LayerCatalogConfig(source, layers);
    }

    /** Reads an OGC tile matrix set JSON file and makes its set known by its id. */
    private static void registerTileMatrixSet(LayerConfig.DataFile file, String where) {
        String json;
        try {
            json = file.read();
        } catch (IOException e) {
            throw new LayerConfigException(where + ": cannot read " + file.location() + ": " + e.getMessage());
        }
        try {
            TileMatrixSet.register(TileMatrixSetJson.read(json, file.location()));
        } catch (IllegalArgumentException e) {
            throw new LayerConfigException(where + ": " + e.getMessage());
        }
    }

    private static LayerConfig toLayer(RawLayer raw, String where,
                                       java.util.function.Function<String, LayerConfig.DataFile> resolve) {
        if (raw == null) {
            throw new LayerConfigException(where + ": empty layer entry");
        }
        if (raw.name() == null || !NAME.matcher(raw.name()).matches()) {
            throw new LayerConfigException(where + ".name: required, letters, digits, '_' and '-' only; got " + raw.name());
        }
        String at = where + " (" + raw.name() + ")";
        int minZoom = raw.zoom() == null || raw.zoom().min() == null ? 0 : raw.zoom().min();
        int maxZoom = raw.zoom() == null || raw.zoom().max() == null ? 18 : raw.zoom().max();
        check(minZoom >= 0 && minZoom <= maxZoom && maxZoom <= TileMatrixSet.MAX_ZOOM, at,
                "zoom: need 0 <= min <= max <= " + TileMatrixSet.MAX_ZOOM + ", got " + minZoom + ".." + maxZoom);

        Set<TileMatrixSet> sets = new LinkedHashSet<>(TileMatrixSet.builtIn());
        if (raw.tileMatrixSets() != null) {
            sets.clear();
            for (String id : raw.tileMatrixSets()) {
                if (id.equals(ALL_WELL_KNOWN)) {
                    sets.addAll(TileMatrixSet.wellKnown());
                    continue;
                }
                sets.add(TileMatrixSet.byId(id).orElseThrow(() -> new LayerConfigException(at
                        + ".tileMatrixSets: unknown '" + id + "'; a well-known set of the OGC registry ("
                        + TileMatrixSet.wellKnown().stream().map(TileMatrixSet::id).limit(6)
                        .collect(Collectors.joining(", ")) + ", UTM01WGS84Quad..UTM60WGS84Quad) or one of "
                        + "tileMatrixSetFiles")));
            }
        }
        Set<TileFormat> formats = EnumSet.allOf(TileFormat.class);
        if (raw.formats() != null) {
            formats = EnumSet.noneOf(TileFormat.class);
            for (String id : raw.formats()) {
                formats.add(TileFormat.byId(id).orElseThrow(() -> new LayerConfigException(at + ".formats: unknown '"
                        + id + "'; one of " + EnumSet.allOf(TileFormat.class).stream().map(TileFormat::id)
                        .collect(Collectors.joining(", ")))));
            }
        }
        check(!sets.isEmpty() && !formats.isEmpty(), at, "tileMatrixSets and formats must not be empty");

        MetatileSize metatile = MetatileSize.DEFAULT;
        if (raw.metatile() != null) {
            try {
                metatile = new MetatileSize(Objects.requireNonNullElse(raw.metatile().width(), 4),
                        Objects.requireNonNullElse(raw.metatile().height(), 4));
            } catch (IllegalArgumentException e) {
                throw new LayerConfigException(at + ".metatile: " + e.getMessage());
            }
        }
        int gutter = Objects.requireNonNullElse(raw.gutter(), 16);
        check(gutter >= 0 && gutter <= 256, at, "gutter: must be 0..256 pixels, got " + gutter);
        EmptyTilePolicy empty = EmptyTilePolicy.SKIP;
        if (raw.emptyTiles() != null) {
            try {
                empty = EmptyTilePolicy.valueOf(raw.emptyTiles().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new LayerConfigException(at + ".emptyTiles: '" + raw.emptyTiles() + "' is not skip or store");
            }
        }
        Color background = color(Objects.requireNonNullElse(raw.background(), "#ffffff"), at + ".background");
        int pngLevel = Objects.requireNonNullElse(raw.pngLevel(), 1);
        check(pngLevel >= 0 && pngLevel <= 9, at, "pngLevel: must be 0..9, got " + pngLevel);
        float jpegQuality = Objects.requireNonNullElse(raw.jpegQuality(), 0.85f);
        check(jpegQuality > 0 && jpegQuality <= 1, at, "jpegQuality: must be in (0, 1], got " + jpegQuality);
        float webpQuality = Objects.requireNonNullElse(raw.webpQuality(), 0.75f);
        check(webpQuality >= 0 && webpQuality <= 1, at, "webpQuality: must be in [0, 1], got " + webpQuality);

        check(raw.source() != null, at, "source: required");
        SourceConfig source = switch (Objects.requireNonNullElse(raw.source().type(), "")) {
            case "vector" -> vector(raw, at, resolve);
            case "wms" -> {
                check(raw.style() == null, at, "style: a wms layer is styled by its server (use source.styles)");
                yield WmsSourceFile.parse(raw.source(), at + ".source");
            }
            case "wmts" -> {
                check(raw.style() == null, at, "style: a wmts layer is styled by its upstream (use source.style)");
                check(raw.tileMatrixSets() != null && raw.tileMatrixSets().size() == 1, at, "tileMatrixSets: a wmts "
                        + "layer names the one set whose matrices the WMTS serves");
                yield TileSourceFile.parseWmts(raw.source(), at + ".source");
            }
            case "tile" -> {
                check(raw.style() == null, at, "style: a tile layer is styled by its upstream");
                yield TileSourceFile.parse(raw.source(), at + ".source", raw.dimensions() == null ? List.of()
                        : raw.dimensions().stream().filter(Objects::nonNull).map(RawDimension::name).toList());
            }
            default -> throw new LayerConfigException(at + ".source.type: '" + raw.source().type()
                    + "' is not supported; use vector, wms, tile or wmts");
        };
        java.util.Optional<MetatileSize> largest = LayerConfig.maxMetatile(source, gutter);
        if (largest.isEmpty() || !io.tileseeder.job.LayerInfo.fits(metatile, largest.get())) {
            WmsSourceConfig wms = (WmsSourceConfig) source;
            throw new LayerConfigException(at + ".metatile: " + metatile.width() + "x" + metatile.height()
                    + " tiles with a " + gutter + " px gutter make a "
                    + (metatile.width() * TileMatrixSet.TILE_SIZE + 2 * gutter) + "x"
                    + (metatile.height() * TileMatrixSet.TILE_SIZE + 2 * gutter)
                    + " px GetMap, larger than source.maxSize " + wms.maxWidth() + "x" + wms.maxHeight());
        }
        return new LayerConfig(raw.name(), Objects.requireNonNullElse(raw.title(), raw.name()),
                Objects.requireNonNullElse(raw.attribution(), ""), minZoom, maxZoom, sets, formats, metatile,
                gutter, empty, background, pngLevel, jpegQuality, webpQuality, source, coverages(raw, at, resolve),
                configHash(raw), dimensions(raw.dimensions(), source, at));
    }

    /**
     * The layer's dimensions, each checked: a wms layer's only, names distinct (in any case) and none a GetMap
     * parameter the seeder sets itself (but STYLES, whose value then replaces the source's styles) or one of the
     * source's {@code params}.
     */
    private static List<Dimension> dimensions(List<RawDimension> raws, SourceConfig source, String at) {
        if (raws == null || raws.isEmpty()) {
            return List.of();
        }
        check(!(source instanceof VectorSourceConfig), at, "dimensions: only a wms or tile layer has request "
                + "parameters to vary");
        check(raws.size() <= MAX_DIMENSIONS, at, "dimensions: at most " + MAX_DIMENSIONS + ", got " + raws.size());
        Map<String, String> params = source instanceof WmsSourceConfig wms ? wms.params() : Map.of();
        Set<String> seen = new HashSet<>();
        List<Dimension> dimensions = new ArrayList<>();
        for (int i = 0; i < raws.size(); i++) {
            RawDimension raw = raws.get(i);
            String where = at + ".dimensions[" + i + "]";
            check(raw != null && raw.name() != null, where, "name: required");
            String upper = raw.name().toUpperCase(Locale.ROOT);
            check(seen.add(upper), where, "name: " + raw.name() + " is declared twice");
            check(upper.equals("STYLES") || !WmsSourceConfig.RESERVED.contains(upper), where, "name: " + raw.name()
                    + " is a GetMap parameter the seeder sets itself");
            check(params.keySet().stream().noneMatch(p -> p.equalsIgnoreCase(raw.name())), where, "name: "
                    + raw.name() + " is also one of source.params; a dimension's value is sent instead");
            Dimension.Kind kind = Dimension.Kind.of(raw.name());
            if (raw.type() != null) {
                try {
                    kind = Dimension.Kind.valueOf(raw.type().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new LayerConfigException(where + ".type: '" + raw.type() + "' is not time, number or text");
                }
            }
            try {
                dimensions.add(Dimension.declare(raw.name(), kind, Objects.requireNonNullElse(raw.values(), List.of()),
                        raw.pattern(), raw.defaultValue()).withRetention(retention(raw.retention(), where)));
            } catch (IllegalArgumentException e) {
                throw new LayerConfigException(where + ": " + e.getMessage());
            }
        }
        return dimensions;
    }

    /**
     * SHA-256 (hex) of the layer's entry as written in the file, keys sorted and keys left out omitted: it changes
     * when the entry does, style and source included, and not when only another layer or the layout of the file
     * does, nor when a later version adds a key the entry does not use. The data files' contents and the defaults of
     * keys left out are not part of it.
     */
    static String configHash(RawLayer raw) {
        try {
            return Digests.sha256(CANONICAL.writeValueAsBytes(raw));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot hash layer " + raw.name(), e);
        }
    }

    /** The layer's named coverages, each read and checked now: a bad one stops the server from starting. */
    private static Map<String, String> coverages(RawLayer raw, String at,
                                                 java.util.function.Function<String, LayerConfig.DataFile> resolve) {
        Map<String, String> coverages = new LinkedHashMap<>();
        if (raw.coverages() == null) {
            return coverages;
        }
        raw.coverages().forEach((name, location) -> {
            String where = at + ".coverages." + name;
            check(NAME.matcher(name).matches(), at, "coverages: name '" + name
                    + "' must be letters, digits, '_' and '-' only");
            check(location != null && !location.isBlank(), where, "the GeoJSON file is missing");
            LayerConfig.DataFile file = resolve.apply(location);
            try {
                coverages.put(name, Coverages.write(Coverages.parse(file.read(), Bounds.WORLD_CRS84, Integer.MAX_VALUE)));
            } catch (IOException e) {
                throw new LayerConfigException(where + ": " + e.getMessage());
            } catch (Coverages.InvalidCoverageException e) {
                throw new LayerConfigException(where + ": " + file.location() + " " + e.getMessage());
            }
        });
        return coverages;
    }

    private static VectorSourceConfig vector(RawLayer raw, String at,
                                             java.util.function.Function<String, LayerConfig.DataFile> resolve) {
        RawSource source = raw.source();
        check(source.url() == null && source.version() == null && source.layers() == null && source.styles() == null
                        && source.format() == null && source.transparent() == null && source.params() == null
                        && source.connectTimeout() == null && source.timeout() == null && source.retries() == null
                        && source.retryDelay() == null && source.maxSize() == null && source.tileSize() == null
                        && source.zoom() == null && source.emptyStatuses() == null && source.resampling() == null
                        && source.layer() == null && source.style() == null && source.tileMatrixSet() == null, at,
                "source: url, version, layers, styles, format, transparent, params, timeouts, retries, maxSize, "
                        + "tileSize, zoom, emptyStatuses, resampling, layer, style and tileMatrixSet are keys of a wms, "
                        + "tile or wmts source; a vector source has data");
        check(source.data() != null && !source.data().isEmpty() && source.data().stream().noneMatch(Objects::isNull),
                at, "source.data: list at least one GeoJSON file, with no empty entries");
        List<LayerConfig.DataFile> data = source.data().stream().map(resolve).toList();
        for (LayerConfig.DataFile file : data) {
            check(file.resource() == null || LayerCatalogFile.class.getClassLoader().getResource(file.resource()) != null,
                    at, "source.data: " + file.location() + " is not bundled with the application");
        }

        check(raw.style() != null && !raw.style().isEmpty(), at, "style: at least one rule is required");
        List<StyleRule> style = new ArrayList<>();
        for (int i = 0; i < raw.style().size(); i++) {
            RawStyle rule = raw.style().get(i);
            String ruleAt = at + ".style[" + i + "]";
            if (rule == null) {
                throw new LayerConfigException(ruleAt + ": empty style rule");
            }
            int ruleMin = rule.zoom() == null || rule.zoom().min() == null ? 0 : rule.zoom().min();
            int ruleMax = rule.zoom() == null || rule.zoom().max() == null ? TileMatrixSet.MAX_ZOOM : rule.zoom().max();
            if (ruleMin < 0 || ruleMin > ruleMax || ruleMax > TileMatrixSet.MAX_ZOOM) {
                throw new LayerConfigException(ruleAt + ".zoom: need 0 <= min <= max <= " + TileMatrixSet.MAX_ZOOM
                        + ", got " + ruleMin + ".." + ruleMax);
            }
            float width = Objects.requireNonNullElse(rule.strokeWidth(), 1f);
            float opacity = Objects.requireNonNullElse(rule.opacity(), 1f);
            if (width < 0 || width > 64 || opacity < 0 || opacity > 1) {
                throw new LayerConfigException(ruleAt + ": strokeWidth must be 0..64 and opacity 0..1");
            }
            style.add(new StyleRule(ruleMin, ruleMax,
                    rule.fill() == null ? null : color(rule.fill(), ruleAt + ".fill"),
                    rule.stroke() == null ? null : color(rule.stroke(), ruleAt + ".stroke"),
                    width, opacity));
        }
        return new VectorSourceConfig(data, style);
    }

    /** {@code #rrggbb} or {@code #rrggbbaa}. */
    static Color color(String text, String where) {
        if (text.matches("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?")) {
            long value = Long.parseLong(text.substring(1), 16);
            return text.length() == 7 ? new Color((int) value)
                    : new Color((int) (value >>> 24), (int) (value >>> 16) & 0xff, (int) (value >>> 8) & 0xff,
                    (int) value & 0xff);
        }
        throw new LayerConfigException(where + ": '" + text + "' is not a colour like #rrggbb or #rrggbbaa");
    }

    static void check(boolean ok, String where, String message) {
        if (!ok) {
            throw new LayerConfigException(where + "." + message);
        }
    }

    /** The parser's first line (the YAML parser adds a multi-line excerpt with a caret) and where it was. */
    private static String oneLine(com.fasterxml.jackson.core.JacksonException e) {
        var at = e.getLocation();
        return JsonProblems.words(e.getOriginalMessage())
                + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr());
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    record RawCatalog(List<String> tileMatrixSetFiles, List<RawLayer> layers) {
    }

    record RawLayer(String name, String title, String attribution, RawZoom zoom, List<String> tileMatrixSets,
                    List<String> formats, RawMetatile metatile, Integer gutter, String emptyTiles,
                    String background, Integer pngLevel, Float jpegQuality, Float webpQuality,
                    RawSource source,
                    List<RawStyle> style, Map<String, String> coverages, List<RawDimension> dimensions) {
    }

    record RawDimension(String name, String type, List<String> values, String pattern,
                        @com.fasterxml.jackson.annotation.JsonProperty("default") String defaultValue,
                        RawRetention retention) {
    }

    record RawRetention(Integer keep, String newerThan) {
    }

    private static Dimension.Retention retention(RawRetention raw, String where) {
        if (raw == null) {
            return null;
        }
        java.time.Duration newerThan = null;
        if (raw.newerThan() != null) {
            try {
                newerThan = java.time.Duration.parse(raw.newerThan());
            } catch (java.time.format.DateTimeParseException e) {
                throw new LayerConfigException(where + ".retention.newerThan: '" + raw.newerThan() + "' is not an ISO "
                        + "8601 duration (PT6H, P7D)");
            }
        }
        try {
            return new Dimension.Retention(Objects.requireNonNullElse(raw.keep(), 0), newerThan);
        } catch (IllegalArgumentException e) {
            throw new LayerConfigException(where + ".retention: " + e.getMessage());
        }
    }

    record RawZoom(Integer min, Integer max) {
    }

    record RawMetatile(Integer width, Integer height) {
    }

    /** Both sources' keys: {@code data} is the vector source's, the rest the wms source's. */
    record RawSource(String type, List<String> data, String url, String version, List<String> layers,
                     List<String> styles, String format, Boolean transparent, java.util.Map<String, String> params,
                     String connectTimeout, String timeout, Integer retries, String retryDelay,
                     RawSize maxSize, Integer tileSize, RawZoom zoom, List<Integer> emptyStatuses,
                     String resampling, String layer, String style, String tileMatrixSet) {
    }

    record RawSize(Integer width, Integer height) {
    }

    record RawStyle(RawZoom zoom, String fill, String stroke, Float strokeWidth, Float opacity) {
    }
}
