package io.tileseeder.render.wms;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.WmsSourceConfig;
import java.math.BigDecimal;
import java.util.Locale;
import okhttp3.HttpUrl;

/**
 * The GetMap request of an area, as the WMS 1.1.1 and 1.3.0 standards define it.
 *
 * <p>CRS per tile matrix set: {@code EPSG:3857} for WebMercatorQuad, {@code EPSG:4326} for WorldCRS84Quad. WMS
 * 1.3.0 takes EPSG:4326 coordinates in that CRS's own axis order, latitude first, so its BBOX is
 * {@code minLat,minLon,maxLat,maxLon}; WMS 1.1.1 always takes x (longitude) first.
 */
public final class GetMap {

    private GetMap() {
    }

    /** The CRS identifier sent for a tile matrix set. */
    public static String crs(TileMatrixSet tms) {
        return tms == TileMatrixSet.WEB_MERCATOR_QUAD ? "EPSG:3857" : "EPSG:4326";
    }

    /**
     * The GetMap URL of {@code bounds} (in the tile matrix set's CRS) drawn at {@code width × height} pixels.
     *
     * @throws IllegalArgumentException if the configured URL is not one OkHttp accepts
     */
    public static HttpUrl url(WmsSourceConfig source, TileMatrixSet tms, Bounds bounds, int width, int height) {
        HttpUrl base = HttpUrl.parse(source.url().toString());
        if (base == null) {
            throw new IllegalArgumentException("not an http(s) URL: " + source.url());
        }
        boolean v130 = source.version().equals(WmsSourceConfig.V130);
        boolean latFirst = v130 && tms == TileMatrixSet.WORLD_CRS84_QUAD;
        String bbox = latFirst
                ? join(bounds.minY(), bounds.minX(), bounds.maxY(), bounds.maxX())
                : join(bounds.minX(), bounds.minY(), bounds.maxX(), bounds.maxY());
        HttpUrl.Builder url = base.newBuilder();
        // WMS parameter names ignore case: a base URL's own "bbox=" or "service=" would be sent beside ours.
        for (String name : base.queryParameterNames()) {
            if (WmsSourceConfig.RESERVED.contains(name.toUpperCase(Locale.ROOT))) {
                url.removeAllQueryParameters(name);
            }
        }
        url.setQueryParameter("SERVICE", "WMS")
                .setQueryParameter("VERSION", source.version())
                .setQueryParameter("REQUEST", "GetMap")
                .setQueryParameter("LAYERS", String.join(",", source.layers()))
                .setQueryParameter("STYLES", String.join(",", source.styles()))
                .setQueryParameter(v130 ? "CRS" : "SRS", crs(tms))
                .setQueryParameter("BBOX", bbox)
                .setQueryParameter("WIDTH", Integer.toString(width))
                .setQueryParameter("HEIGHT", Integer.toString(height))
                .setQueryParameter("FORMAT", source.format())
                .setQueryParameter("TRANSPARENT", source.transparent() ? "TRUE" : "FALSE")
                .setQueryParameter("EXCEPTIONS", v130 ? "XML" : "application/vnd.ogc.se_xml");
        source.params().forEach(url::setQueryParameter);
        return url.build();
    }

    /** Plain decimals (never {@code 1.0E7}, which some servers do not parse), as short as round-trips exactly. */
    private static String join(double... values) {
        StringBuilder out = new StringBuilder();
        for (double value : values) {
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(BigDecimal.valueOf(value).stripTrailingZeros().toPlainString());
        }
        return out.toString();
    }
}
