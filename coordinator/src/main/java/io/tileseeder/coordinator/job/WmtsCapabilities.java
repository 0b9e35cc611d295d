package io.tileseeder.coordinator.job;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An OGC WMTS 1.0.0 capabilities document (RESTful) for a layer's tiles in one matrix set and format, stored beside
 * them as {@code WMTSCapabilities-{format}.xml}: one layer, one style, the matrix set with a tile matrix per zoom level
 * of the layer, and the tile URL template of the store's layout, e.g.
 * {@code {base}/{layer}/{tileMatrixSet}/{TileMatrix}/{TileCol}/{TileRow}.{ext}} in the xyz layout, with the store's
 * public URL as its base ({@link TileUrls}, as the TileJSON's). Only the layouts a template can name have one
 * ({@link Layout#wmtsTemplate}). The URL is absolute because WMTS
 * clients (GDAL among them) use the template as it is.
 *
 * <p>Scale denominators follow the standard's 0.28 mm pixel: resolution × metres per CRS unit / 0.00028, with a
 * degree of WorldCRS84Quad worth 2π × 6,378,137 / 360 m. WebMercatorQuad is the standard's GoogleMapsCompatible
 * well-known scale set. Every set's definition is written out whole (a custom set's included), with its CRS's URN;
 * {@code TopLeftCorner} is in the CRS's axis order: x, y for EPSG:3857, longitude, latitude for CRS84 (OGC's CRS84
 * is longitude first), northing first for EPSG:3035. The layer's {@code WGS84BoundingBox} is the set's extent in
 * CRS84 ({@link TileMatrixSet#crs84Bounds}); for a set other than the two built-in ones, whose CRS84 envelope is only
 * approximate, an {@code ows:BoundingBox} in the set's CRS gives its extent exactly (GDAL takes the layer's extent
 * from it).
 */
public final class WmtsCapabilities {

    private static final double PIXEL_METRES = 0.00028;

    /** The WMS parameter a layer's styles are a dimension of, listed as the WMTS layer's {@code Style}s. */
    private static final String STYLES = "STYLES";

    private WmtsCapabilities() {
    }

    public static String fileName(TileFormat format) {
        return "WMTSCapabilities-" + format.id() + ".xml";
    }

    /** The document of a layer without dimensions. @param base the store's public URL */
    public static byte[] document(LayerInfo layer, TileMatrixSet tms, TileFormat format, String base, Layout layout) {
        return document(layer, tms, format, base, layout, Map.of());
    }

    /**
     * The document of a layer's caches in one set and format. A layer with dimensions gets a {@code Dimension} each,
     * listing the values of its caches (its default first named as {@code Default}: the declared one, else the
     * first value), and its template a variable per dimension where the value's folder is
     * ({@code …/{TIME}/{TileMatrix}/…}). A {@code STYLES} dimension is the layer's WMTS styles instead: a
     * {@code Style} per value held, the default one {@code isDefault}, and {@code {Style}} in the template, as a
     * WMTS client chooses a style.
     *
     * @param base   the store's public URL ({@link io.tileseeder.port.TileStore#publicUrl})
     * @param layout the store's layout, one a template can name ({@link Layout#wmtsTemplate})
     * @param values the values of each of the layer's dimensions that its caches hold, in the layer's order
     */
    public static byte[] document(LayerInfo layer, TileMatrixSet tms, TileFormat format, String base, Layout layout,
                                  Map<String, ? extends Collection<String>> values) {
        if (!layout.wmtsTemplate()) {
            throw new IllegalArgumentException("a WMTS template cannot name the tiles of the " + layout.id()
                    + " layout");
        }
        boolean mercator = tms == TileMatrixSet.WEB_MERCATOR_QUAD;
        Crs crs = tms.referenceSystem();
        Bounds area = tms.crs84Bounds();
        StringBuilder xml = new StringBuilder(4096 + 400 * Math.max(0, layer.maxZoom(tms) - layer.minZoom() + 1));
        xml.append("""
                <?xml version="1.0" encoding="UTF-8"?>
                <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" \
                xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">
                  <ows:ServiceIdentification>
                """);
        xml.append("    <ows:Title>").append(escape(layer.title())).append("</ows:Title>\n");
        xml.append("""
                    <ows:ServiceType>OGC WMTS</ows:ServiceType>
                    <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion>
                """);
        if (!layer.attribution().isEmpty()) {
            xml.append("    <ows:AccessConstraints>").append(escape(layer.attribution()))
                    .append("</ows:AccessConstraints>\n");
        }
        xml.append("  </ows:ServiceIdentification>\n  <Contents>\n    <Layer>\n");
        xml.append("      <ows:Title>").append(escape(layer.title())).append("</ows:Title>\n");
        xml.append("      <ows:WGS84BoundingBox>\n");
        xml.append("        <ows:LowerCorner>").append(number(area.minX())).append(' ').append(number(area.minY()))
                .append("</ows:LowerCorner>\n");
        xml.append("        <ows:UpperCorner>").append(number(area.maxX())).append(' ').append(number(area.maxY()))
                .append("</ows:UpperCorner>\n");
        xml.append("      </ows:WGS84BoundingBox>\n");
        xml.append("      <ows:Identifier>").append(escape(layer.name())).append("</ows:Identifier>\n");
        if (!TileMatrixSet.builtIn().contains(tms)) {
            Bounds extent = tms.crsBounds();
            xml.append("      <ows:BoundingBox crs=\"").append(crs.urn()).append("\">\n");
            xml.append("        <ows:LowerCorner>").append(corner(crs, extent.minX(), extent.minY()))
                    .append("</ows:LowerCorner>\n");
            xml.append("        <ows:UpperCorner>").append(corner(crs, extent.maxX(), extent.maxY()))
                    .append("</ows:UpperCorner>\n");
            xml.append("      </ows:BoundingBox>\n");
        }
        Dimension styles = layer.dimensions().stream().filter(d -> d.name().equalsIgnoreCase(STYLES)).findFirst()
                .orElse(null);
        String styleDefault = styles == null ? null : fallback(styles, held(styles, values));
        if (styleDefault == null) {
            xml.append("      <Style isDefault=\"true\"><ows:Identifier>default</ows:Identifier></Style>\n");
        } else {
            for (String value : listed(held(styles, values), styleDefault)) {
                xml.append("      <Style isDefault=\"").append(value.equals(styleDefault)).append("\"><ows:Identifier>")
                        .append(escape(value)).append("</ows:Identifier></Style>\n");
            }
        }
        xml.append("      <Format>").append(format.contentType()).append("</Format>\n");
        StringBuilder cache = new StringBuilder(layout.folder(new TileCache(layer.name(), tms)));
        for (Dimension dimension : layer.dimensions()) {
            if (dimension == styles) {
                cache.append("/{Style}");
                continue;
            }
            Collection<String> held = held(dimension, values);
            xml.append("      <Dimension>\n");
            xml.append("        <ows:Identifier>").append(escape(dimension.name())).append("</ows:Identifier>\n");
            String fallback = fallback(dimension, held);
            if (fallback != null) {
                xml.append("        <Default>").append(escape(fallback)).append("</Default>\n");
            }
            for (String value : listed(held, fallback)) {
                xml.append("        <Value>").append(escape(value)).append("</Value>\n");
            }
            xml.append("      </Dimension>\n");
            cache.append("/{").append(dimension.name()).append('}');
        }
        xml.append("      <TileMatrixSetLink><TileMatrixSet>").append(tms.id())
                .append("</TileMatrixSet></TileMatrixSetLink>\n");
        xml.append("      <ResourceURL format=\"").append(format.contentType())
                .append("\" resourceType=\"tile\" template=\"")
                .append(escape(TileUrls.template(base, cache.toString(), layout, format, "{TileMatrix}", "{TileCol}",
                        "{TileRow}"))).append("\"/>\n");
        xml.append("    </Layer>\n    <TileMatrixSet>\n");
        xml.append("      <ows:Identifier>").append(tms.id()).append("</ows:Identifier>\n");
        xml.append("      <ows:SupportedCRS>").append(crs.urn()).append("</ows:SupportedCRS>\n");
        if (mercator) {
            xml.append("      <WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>\n");
        }
        double metresPerUnit = crs.metresPerUnit();
        for (int z = layer.minZoom(); z <= layer.maxZoom(tms); z++) {
            xml.append("      <TileMatrix>\n");
            TileMatrix matrix = tms.matrix(z);
            xml.append("        <ows:Identifier>").append(z).append("</ows:Identifier>\n");
            xml.append("        <ScaleDenominator>").append(number(tms.resolution(z) * metresPerUnit / PIXEL_METRES))
                    .append("</ScaleDenominator>\n");
            xml.append("        <TopLeftCorner>").append(corner(crs, matrix.left(), matrix.top()))
                    .append("</TopLeftCorner>\n");
            xml.append("        <TileWidth>").append(matrix.tileWidth()).append("</TileWidth>\n");
            xml.append("        <TileHeight>").append(matrix.tileHeight()).append("</TileHeight>\n");
            xml.append("        <MatrixWidth>").append(matrix.matrixWidth()).append("</MatrixWidth>\n");
            xml.append("        <MatrixHeight>").append(matrix.matrixHeight()).append("</MatrixHeight>\n");
            xml.append("      </TileMatrix>\n");
        }
        xml.append("    </TileMatrixSet>\n  </Contents>\n</Capabilities>\n");
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A point in the CRS's axis order. */
    private static Collection<String> held(Dimension dimension, Map<String, ? extends Collection<String>> values) {
        return values.containsKey(dimension.name()) ? values.get(dimension.name()) : List.of();
    }

    /** A dimension's {@code Default}: the declared one, else the first value held; null when there is neither. */
    private static String fallback(Dimension dimension, Collection<String> held) {
        return dimension.defaultValue() != null ? dimension.defaultValue() : held.stream().findFirst().orElse(null);
    }

    /** The values listed: those held, or the default alone while none is. */
    private static Collection<String> listed(Collection<String> held, String fallback) {
        return held.isEmpty() && fallback != null ? List.of(fallback) : held;
    }

    private static String corner(Crs crs, double easting, double northing) {
        return crs.northingFirst() ? number(northing) + " " + number(easting) : number(easting) + " " + number(northing);
    }

    /** A number as XML Schema's double writes it: no exponent, up to 10 decimals, trailing zeros dropped. */
    static String number(double value) {
        String text = String.format(Locale.ROOT, "%.10f", value);
        text = text.replaceAll("0+$", "");
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
