package io.tileseeder.coordinator.job;

import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An OGC WMTS 1.0.0 capabilities document (RESTful) for a layer's tiles in one matrix set and format, stored beside
 * them as {@code WMTSCapabilities-{format}.xml}: one layer, one style, the matrix set with a tile matrix per zoom level
 * of the layer, and the tile URL template {@code {base}/{layer}/{tileMatrixSet}/{TileMatrix}/{TileCol}/{TileRow}.{ext}}
 * with the store's public URL as its base ({@link TileUrls}, as the TileJSON's). The URL is absolute because WMTS
 * clients (GDAL among them) use the template as it is.
 *
 * <p>Scale denominators follow the standard's 0.28 mm pixel: resolution × metres per CRS unit / 0.00028, with a
 * degree of WorldCRS84Quad worth 2π × 6,378,137 / 360 m. WebMercatorQuad is the standard's GoogleMapsCompatible
 * well-known scale set. Axis order is the CRS's: x, y for EPSG:3857, longitude, latitude for CRS84.
 */
public final class WmtsCapabilities {

    private static final double PIXEL_METRES = 0.00028;
    private static final double METRES_PER_DEGREE = 2 * Math.PI * 6_378_137 / 360;

    private WmtsCapabilities() {
    }

    public static String fileName(TileFormat format) {
        return "WMTSCapabilities-" + format.id() + ".xml";
    }

    /** @param base the store's public URL ({@link io.tileseeder.port.TileStore#publicUrl}) */
    public static byte[] document(LayerInfo layer, TileMatrixSet tms, TileFormat format, String base) {
        boolean mercator = tms == TileMatrixSet.WEB_MERCATOR_QUAD;
        double maxLat = mercator ? 85.0511287798066 : 90;
        StringBuilder xml = new StringBuilder(4096 + 400 * (layer.maxZoom() - layer.minZoom() + 1));
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
        xml.append("        <ows:LowerCorner>-180 ").append(number(-maxLat)).append("</ows:LowerCorner>\n");
        xml.append("        <ows:UpperCorner>180 ").append(number(maxLat)).append("</ows:UpperCorner>\n");
        xml.append("      </ows:WGS84BoundingBox>\n");
        xml.append("      <ows:Identifier>").append(escape(layer.name())).append("</ows:Identifier>\n");
        xml.append("      <Style isDefault=\"true\"><ows:Identifier>default</ows:Identifier></Style>\n");
        xml.append("      <Format>").append(format.contentType()).append("</Format>\n");
        xml.append("      <TileMatrixSetLink><TileMatrixSet>").append(tms.id())
                .append("</TileMatrixSet></TileMatrixSetLink>\n");
        xml.append("      <ResourceURL format=\"").append(format.contentType())
                .append("\" resourceType=\"tile\" template=\"")
                .append(escape(TileUrls.template(base, layer.name(), tms, format, "{TileMatrix}", "{TileCol}",
                        "{TileRow}"))).append("\"/>\n");
        xml.append("    </Layer>\n    <TileMatrixSet>\n");
        xml.append("      <ows:Identifier>").append(tms.id()).append("</ows:Identifier>\n");
        xml.append("      <ows:SupportedCRS>")
                .append(mercator ? "urn:ogc:def:crs:EPSG::3857" : "urn:ogc:def:crs:OGC:1.3:CRS84")
                .append("</ows:SupportedCRS>\n");
        if (mercator) {
            xml.append("      <WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>\n");
        }
        double metresPerUnit = mercator ? 1 : METRES_PER_DEGREE;
        for (int z = layer.minZoom(); z <= layer.maxZoom(); z++) {
            xml.append("      <TileMatrix>\n");
            TileMatrix matrix = tms.matrix(z);
            xml.append("        <ows:Identifier>").append(z).append("</ows:Identifier>\n");
            xml.append("        <ScaleDenominator>").append(number(tms.resolution(z) * metresPerUnit / PIXEL_METRES))
                    .append("</ScaleDenominator>\n");
            xml.append("        <TopLeftCorner>").append(number(matrix.left())).append(' ').append(number(matrix.top()))
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

    /** A number as XML Schema's double writes it: no exponent, up to 10 decimals, trailing zeros dropped. */
    private static String number(double value) {
        String text = String.format(Locale.ROOT, "%.10f", value);
        text = text.replaceAll("0+$", "");
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
