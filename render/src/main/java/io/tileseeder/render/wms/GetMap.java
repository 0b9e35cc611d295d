package io.tileseeder.render.wms;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.WmsSourceConfig;
import java.math.BigDecimal;
import java.util.Locale;
import okhttp3.HttpUrl;

/**
 * The GetMap request of an area, as the WMS 1.1.1 and 1.3.0 standards define it.
 *
 * <p>The CRS is the tile matrix set's: its EPSG code, and {@code EPSG:4326} for WorldCRS84Quad (CRS84 has the same
 * datum and units; WMS 1.1.1 servers do not all know {@code CRS:84}). WMS 1.3.0 takes coordinates in the CRS's own
 * axis order, so its BBOX is {@code minLat,minLon,maxLat,maxLon} for EPSG:4326 and northing first for the other
 * northing-first CRSs (EPSG:3035, …); WMS 1.1.1 always takes x (easting, longitude) first.
 */
public final class GetMap {

    private GetMap() {
    }

    /** The CRS identifier sent for a tile matrix set. */
    public static String crs(TileMatrixSet tms) {
        return tms.referenceSystem() == Crs.CRS84 ? "EPSG:4326" : tms.crs();
    }

    /**
     * The GetMap URL of {@code bounds} (in the tile matrix set's CRS) drawn at {@code width × height} pixels.
     *
     * @throws IllegalArgumentException if the configured URL is not one OkHttp accepts
     */
    public static HttpUrl url(WmsSourceConfig source, TileMatrixSet tms, Bounds bounds, int width, int height) {
        return url(source, tms, bounds, width, height, DimensionValues.NONE);
    }

    /**
     * The GetMap URL of {@code bounds} in the cache of the given dimension values: each is sent as its parameter,
     * {@code STYLES} in place of the source's styles.
     *
     * @throws IllegalArgumentException if the configured URL is not one OkHttp accepts
     */
    public static HttpUrl url(WmsSourceConfig source, TileMatrixSet tms, Bounds bounds, int width, int height,
                              DimensionValues dimensions) {
        HttpUrl base = HttpUrl.parse(source.url().toString());
        if (base == null) {
            throw new IllegalArgumentException("not an http(s) URL: " + source.url());
        }
        boolean v130 = source.version().equals(WmsSourceConfig.V130);
        boolean latFirst = v130 && (tms.referenceSystem() == Crs.CRS84 || tms.referenceSystem().northingFirst());
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
        dimensions.values().forEach((name, value) -> {
            for (String own : base.queryParameterNames()) {
                if (own.equalsIgnoreCase(name)) {
                    url.removeAllQueryParameters(own);
                }
            }
            url.setQueryParameter(name.equalsIgnoreCase("STYLES") ? "STYLES" : name, value);
        });
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
