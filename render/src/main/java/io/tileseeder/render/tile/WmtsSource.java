package io.tileseeder.render.tile;

import io.tileseeder.grid.Crs;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.layer.WmtsSourceConfig;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.MetatileSource;
import io.tileseeder.render.wms.WmsClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import okhttp3.HttpUrl;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/**
 * A {@code wmts} layer's metatiles: the WMTS's capabilities are read when the layer is first drawn (and again after a
 * failure), its layer's RESTful tile template (or, when it has none, its KVP GetTile address with the parameters of a
 * GetTile) and its tile matrix set matched to the layer's own set, level by level (the same CRS, cell size within 1e-6
 * and top-left corner within a cell's millionth); then it is drawn as a {@link TileSource} of that template, over the
 * levels from the first matched to the last one matched without a gap. A set with no such matrix (chosen, or the
 * first the layer links when none matches) is a grid of its own, all its matrices levels, from which the tile source
 * scales, or warps from another CRS.
 * A template's {@code {Style}} is the chosen one, or, when none is chosen and the layer has a {@code STYLES}
 * dimension, that dimension's value; {@code {TileMatrixSet}} the chosen set; a dimension of the WMTS layer is the
 * layer's dimension of that name (in any case) when it has one, else the WMTS's default value.
 */
public final class WmtsSource implements MetatileSource {

    private static final String WMTS = "http://www.opengis.net/wmts/1.0";
    private static final String OWS = "http://www.opengis.net/ows/1.1";
    private static final String XLINK = "http://www.w3.org/1999/xlink";
    private static final double PIXEL_METRES = 0.00028;
    /** The largest capabilities document read. */
    private static final long MAX_DOCUMENT = 32L << 20;

    private final WmtsSourceConfig config;
    private final TileMatrixSet tms;
    private final List<Dimension> dimensions;
    private final WmsClient client;
    private volatile TileSource tiles;

    /** @param tms the layer's one tile matrix set; @param dimensions the layer's */
    public WmtsSource(WmtsSourceConfig config, TileMatrixSet tms, List<Dimension> dimensions, WmsClient client) {
        this.config = config;
        this.tms = tms;
        this.dimensions = dimensions;
        this.client = client;
    }

    @Override
    public Optional<MetatileImage> render(Metatile metatile, int gutter, DimensionValues values)
            throws IOException, InterruptedException {
        TileSource source = tiles;
        if (source == null) {
            synchronized (this) {
                source = tiles;
                if (source == null) {
                    HttpUrl url = HttpUrl.get(config.capabilities());
                    source = new TileSource(tileSource(client.getDocument(config, url, MAX_DOCUMENT)), client);
                    tiles = source;
                }
            }
        }
        return source.render(metatile, gutter, values);
    }

    /** The tile source the capabilities describe for the configured layer, style, format and set. */
    TileSourceConfig tileSource(byte[] capabilities) throws IOException {
        String where = "WMTS " + config.capabilities() + ", layer " + config.layer();
        Element root = parse(capabilities, where).getDocumentElement();
        Element contents = first(root, WMTS, "Contents");
        if (contents == null) {
            throw new IOException(config.capabilities() + " is not WMTS 1.0 capabilities (no Contents)");
        }
        Element layer = null;
        List<String> layers = new ArrayList<>();
        for (Element candidate : children(contents, WMTS, "Layer")) {
            String id = text(candidate, OWS, "Identifier");
            layers.add(id);
            if (config.layer().equals(id)) {
                layer = candidate;
            }
        }
        if (layer == null) {
            throw new IOException(where + ": no such layer; it has " + layers);
        }
        String style = config.style();
        List<String> styles = new ArrayList<>();
        for (Element candidate : children(layer, WMTS, "Style")) {
            styles.add(text(candidate, OWS, "Identifier"));
            if (style == null && "true".equals(candidate.getAttribute("isDefault"))) {
                style = text(candidate, OWS, "Identifier");
            }
        }
        if (style == null && !styles.isEmpty()) {
            style = styles.getFirst();
        }
        if (style == null || !styles.contains(style)) {
            throw new IOException(where + ": no style " + config.style() + "; it has " + styles);
        }
        Map<String, String> templates = new java.util.LinkedHashMap<>();
        for (Element url : children(layer, WMTS, "ResourceURL")) {
            if ("tile".equalsIgnoreCase(url.getAttribute("resourceType"))) {
                templates.putIfAbsent(url.getAttribute("format"), url.getAttribute("template"));
            }
        }
        String styleDimension = config.style() != null ? null : dimensions.stream().map(Dimension::name)
                .filter(name -> name.equalsIgnoreCase("STYLES")).findFirst().map(name -> "{" + name + "}")
                .orElse(null);
        String setId = matchingSet(contents, layer, where);
        String template;
        if (templates.isEmpty()) {
            List<String> formats = children(layer, WMTS, "Format").stream().map(f -> f.getTextContent().trim())
                    .toList();
            String kvpStyle = styleDimension != null ? styleDimension : encoded(style);
            template = kvp(root, chosen(formats, where), kvpStyle, setId, where);
        } else {
            template = templates.get(chosen(templates.keySet(), where));
        }
        Map<String, String> constants = new HashMap<>();
        for (Element dimension : children(layer, WMTS, "Dimension")) {
            String id = text(dimension, OWS, "Identifier");
            String ours = dimensions.stream().map(Dimension::name).filter(name -> name.equalsIgnoreCase(id))
                    .findFirst().orElse(null);
            if (ours != null) {
                template = template.replace("{" + id + "}", "{" + ours + "}");
            } else {
                constants.put(id, text(dimension, WMTS, "Default"));
            }
        }
        String styleValue = styleDimension != null ? styleDimension : style;
        template = template.replace("{Style}", styleValue).replace("{style}", styleValue)
                .replace("{TileMatrixSet}", setId);
        for (Map.Entry<String, String> constant : constants.entrySet()) {
            template = template.replace("{" + constant.getKey() + "}", DimensionValues.folder(constant.getValue()));
        }
        Levels levels = levels(contents, setId, where);
        int min = levels.ids().keySet().stream().min(Integer::compare).orElseThrow();
        int max = min;
        while (levels.ids().containsKey(max + 1)) {
            max++;
        }
        return new TileSourceConfig(template, levels.tileSize(), min, max, config.emptyStatuses(),
                config.resampling(), config.connectTimeout(), config.timeout(), config.retries(), config.retryDelay(),
                levels.ids(), levels.grid());
    }

    /**
     * A WMTS set's matrices as levels: the identifier of its matrix at each level, their tile size, and the set as a
     * grid of its own when it is in another CRS than the layer's (null when its levels are the layer's set's).
     */
    private record Levels(Map<Integer, String> ids, int tileSize, TileMatrixSet grid) {
    }

    /** The configured format, else the first PNG, else the first: it must be one of {@code formats}. */
    private String chosen(Collection<String> formats, String where) throws IOException {
        String format = config.format() != null ? config.format()
                : formats.stream().filter(f -> f.startsWith("image/png")).findFirst()
                        .orElse(formats.stream().findFirst().orElse(null));
        if (format == null || !formats.contains(format)) {
            throw new IOException(where + ": no tile format" + (config.format() == null ? "" : " " + config.format())
                    + "; its formats " + formats);
        }
        return format;
    }

    /**
     * The KVP GetTile template of a WMTS with no RESTful template: the GetTile operation's HTTP Get address (one
     * allowing the KVP encoding, or not saying), and the parameters of WMTS 1.0.0's table 18, each value
     * percent-encoded; a dimension of the layer is one more parameter of its name, filled in as the RESTful
     * template's {@code {Dimension}} is.
     *
     * @param style the STYLE parameter's value, percent-encoded, or a template variable
     */
    private String kvp(Element root, String format, String style, String setId, String where) throws IOException {
        String address = null;
        Element operations = first(root, OWS, "OperationsMetadata");
        for (Element operation : operations == null ? List.<Element>of() : children(operations, OWS, "Operation")) {
            if (!"GetTile".equals(operation.getAttribute("name"))) {
                continue;
            }
            for (Element dcp : children(operation, OWS, "DCP")) {
                for (Element http : children(dcp, OWS, "HTTP")) {
                    for (Element get : children(http, OWS, "Get")) {
                        List<String> encodings = new ArrayList<>();
                        for (Element constraint : children(get, OWS, "Constraint")) {
                            if ("GetEncoding".equals(constraint.getAttribute("name"))) {
                                Element allowed = first(constraint, OWS, "AllowedValues");
                                for (Element value : allowed == null ? List.<Element>of()
                                        : children(allowed, OWS, "Value")) {
                                    encodings.add(value.getTextContent().trim());
                                }
                            }
                        }
                        if (address == null && (encodings.isEmpty() || encodings.contains("KVP"))) {
                            address = get.getAttributeNS(XLINK, "href").trim();
                        }
                    }
                }
            }
        }
        if (address == null || address.isEmpty()) {
            throw new IOException(where + ": no RESTful tile template and no KVP GetTile address "
                    + "(OperationsMetadata, GetTile, DCP HTTP Get)");
        }
        if (HttpUrl.parse(address) == null) {
            throw new IOException(where + ": its GetTile address " + address + " is not an http(s) URL");
        }
        StringBuilder template = new StringBuilder(address);
        template.append(address.contains("?") ? (address.endsWith("?") || address.endsWith("&") ? "" : "&") : "?");
        template.append("SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=").append(encoded(config.layer()))
                .append("&STYLE=").append(style).append("&FORMAT=").append(encoded(format))
                .append("&TILEMATRIXSET=").append(encoded(setId))
                .append("&TILEMATRIX={TileMatrix}&TILEROW={TileRow}&TILECOL={TileCol}");
        Element contents = first(root, WMTS, "Contents");
        for (Element layer : children(contents, WMTS, "Layer")) {
            if (config.layer().equals(text(layer, OWS, "Identifier"))) {
                for (Element dimension : children(layer, WMTS, "Dimension")) {
                    String id = text(dimension, OWS, "Identifier");
                    template.append('&').append(encoded(id)).append("={").append(id).append('}');
                }
            }
        }
        return template.toString();
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The configured set, else the first of the layer's whose matrices match the layer's own set at some level, else
     * the first that is a grid this product reads (then scaled, or warped from another CRS).
     */
    private String matchingSet(Element contents, Element layer, String where) throws IOException {
        List<String> linked = new ArrayList<>();
        for (Element link : children(layer, WMTS, "TileMatrixSetLink")) {
            linked.add(text(link, WMTS, "TileMatrixSet"));
        }
        if (config.tileMatrixSet() != null) {
            if (!linked.contains(config.tileMatrixSet())) {
                throw new IOException(where + ": no tile matrix set " + config.tileMatrixSet() + "; it has " + linked);
            }
            return config.tileMatrixSet();
        }
        String foreign = null;
        for (String id : linked) {
            try {
                if (levels(contents, id, where).grid() == null) {
                    return id;
                }
                foreign = foreign == null ? id : foreign;
            } catch (IOException notThisOne) {
                // try the next set
            }
        }
        if (foreign != null) {
            return foreign;
        }
        throw new IOException(where + ": none of its tile matrix sets " + linked + " has a matrix of " + tms.id()
                + " (the same CRS, cell size and top-left corner) or is a grid this product reads");
    }

    /**
     * The set's levels: its matrices that are matrices of {@link #tms} (the same CRS, cell size and top-left corner);
     * when none is, all its matrices, as a grid of its own.
     */
    private Levels levels(Element contents, String setId, String where) throws IOException {
        Element set = children(contents, WMTS, "TileMatrixSet").stream()
                .filter(candidate -> setId.equals(text(candidate, OWS, "Identifier"))).findFirst()
                .orElseThrow(() -> new IOException(where + ": its tile matrix set " + setId + " is not defined"));
        String name = text(set, OWS, "SupportedCRS");
        if (name == null) {
            throw new IOException(where + ": tile matrix set " + setId + " names no SupportedCRS");
        }
        Crs named = crs(name, where + ", tile matrix set " + setId);
        boolean same = named.code().equals(tms.referenceSystem().code());
        Crs crs = same ? tms.referenceSystem() : named;
        List<TileMatrix> matrices = new ArrayList<>();
        for (Element matrix : children(set, WMTS, "TileMatrix")) {
            String at = where + ", tile matrix set " + setId + ", matrix " + text(matrix, OWS, "Identifier");
            try {
                double cell = Double.parseDouble(text(matrix, WMTS, "ScaleDenominator")) * PIXEL_METRES
                        / crs.metresPerUnit();
                String[] corner = text(matrix, WMTS, "TopLeftCorner").trim().split("\\s+");
                double first = Double.parseDouble(corner[0]);
                double second = Double.parseDouble(corner[1]);
                matrices.add(new TileMatrix(text(matrix, OWS, "Identifier"), cell,
                        crs.northingFirst() ? second : first, crs.northingFirst() ? first : second,
                        Integer.parseInt(text(matrix, WMTS, "TileWidth").trim()),
                        Integer.parseInt(text(matrix, WMTS, "TileHeight").trim()),
                        Integer.parseInt(text(matrix, WMTS, "MatrixWidth").trim()),
                        Integer.parseInt(text(matrix, WMTS, "MatrixHeight").trim())));
            } catch (RuntimeException e) {
                throw new IOException(at + ": not a tile matrix this reader takes (" + e.getMessage() + ")", e);
            }
        }
        Map<Integer, String> ids = new HashMap<>();
        Integer size = null;
        if (same) {
            for (TileMatrix theirs : matrices) {
                for (int z = 0; z <= tms.maxZoom(); z++) {
                    TileMatrix ours = tms.matrix(z);
                    double span = ours.tileSpanX();
                    if (Math.abs(theirs.tileSpanX() - span) <= span * 1e-6
                            && Math.abs(theirs.left() - ours.left()) <= span * 1e-6
                            && Math.abs(theirs.top() - ours.top()) <= span * 1e-6) {
                        ids.put(z, theirs.id());
                        size = theirs.tileWidth();
                    }
                }
            }
            if (size != null) {
                return new Levels(ids, size, null);
            }
        }
        matrices.sort(Comparator.comparingDouble(TileMatrix::cellSize).reversed());
        for (int level = 0; level < matrices.size(); level++) {
            TileMatrix matrix = matrices.get(level);
            ids.put(level, matrix.id());
            if (size != null && size != matrix.tileWidth()) {
                throw new IOException(where + ": tile matrix set " + setId + " has tiles of " + size + " and "
                        + matrix.tileWidth() + " px; a set in another CRS is read with one tile size");
            }
            size = matrix.tileWidth();
        }
        try {
            return new Levels(ids, size == null ? 0 : size,
                    TileMatrixSet.of(setId.replaceAll("[^A-Za-z0-9_.-]", "_"), crs, matrices));
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * A WMTS's CRS, with the EPSG registry's axis order as WMTS 1.0.0 takes it for {@code TopLeftCorner}: latitude
     * first for a geographic CRS, and for a projected one what the OGC registry's sets in that CRS say (easting first
     * otherwise).
     */
    private static Crs crs(String name, String where) throws IOException {
        try {
            Crs probe = Crs.of(name, false);
            if (probe.equals(Crs.CRS84)) {
                return probe;
            }
            boolean northingFirst = probe.proj4().contains("+proj=longlat") || TileMatrixSet.wellKnown().stream()
                    .map(TileMatrixSet::referenceSystem)
                    .anyMatch(known -> known.code().equals(probe.code()) && known.northingFirst());
            return Crs.of(name, northingFirst);
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + e.getMessage(), e);
        }
    }

    private static Document parse(byte[] xml, String where) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(where + ": the capabilities are not XML this reader takes: " + e.getMessage(), e);
        }
    }

    private static List<Element> children(Element parent, String namespace, String name) {
        List<Element> found = new ArrayList<>();
        for (var node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && namespace.equals(element.getNamespaceURI())
                    && name.equals(element.getLocalName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static Element first(Element parent, String namespace, String name) {
        List<Element> found = children(parent, namespace, name);
        return found.isEmpty() ? null : found.getFirst();
    }

    private static String text(Element parent, String namespace, String name) {
        Element child = first(parent, namespace, name);
        return child == null ? null : child.getTextContent().trim();
    }
}
