package io.tileseeder.render.wms;

import static org.assertj.core.api.Assertions.assertThat;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.WmsSourceConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** The GetMap URL: parameters of WMS 1.1.1 and 1.3.0, axis order, plain numbers, the configured URL's own query. */
class GetMapTest {

    private static final String HALF_WORLD = "20037508.342789244";

    /** WorldCRS84Quad zoom 2 (45° tiles), metatile 2x2 at column 1, row 0: lon -90..0, lat 0..90. */
    private static final Metatile CRS84_METATILE = new Metatile(TileMatrixSet.WORLD_CRS84_QUAD, 2, 1, 0,
            new MetatileSize(2, 2));
    /** A 16 px gutter at zoom 2 of WorldCRS84Quad: 16 × 45° / 256. */
    private static final int GUTTER = 16;

    @Test
    void wms111InWebMercatorTakesSrsAndXFirst() {
        Metatile world = new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 0, 0, 0, MetatileSize.DEFAULT);
        WmsSourceConfig config = config("http://maps.example.com/wms", WmsSourceConfig.V111);

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, world.bounds(0), world.imageWidth(0),
                world.imageHeight(0));

        assertThat(url.queryParameter("SERVICE")).isEqualTo("WMS");
        assertThat(url.queryParameter("VERSION")).isEqualTo("1.1.1");
        assertThat(url.queryParameter("REQUEST")).isEqualTo("GetMap");
        assertThat(url.queryParameter("SRS")).isEqualTo("EPSG:3857");
        assertThat(url.queryParameterNames()).doesNotContain("CRS");
        assertThat(url.queryParameter("BBOX")).isEqualTo(String.join(",", "-" + HALF_WORLD, "-" + HALF_WORLD,
                HALF_WORLD, HALF_WORLD));
        assertThat(url.queryParameter("WIDTH")).isEqualTo("256");
        assertThat(url.queryParameter("HEIGHT")).isEqualTo("256");
        assertThat(url.queryParameter("FORMAT")).isEqualTo("image/png");
        assertThat(url.queryParameter("TRANSPARENT")).isEqualTo("TRUE");
        assertThat(url.queryParameter("EXCEPTIONS")).isEqualTo("application/vnd.ogc.se_xml");
        assertThat(url.queryParameter("LAYERS")).isEqualTo("world");
        assertThat(url.queryParameter("STYLES")).as("present and empty: the default styles").isEmpty();
    }

    @Test
    void wms130InWebMercatorTakesCrsAndStillXFirst() {
        Bounds bounds = new Bounds(-1000.5, -2000.25, 3000, 4000.125);
        WmsSourceConfig config = config("http://maps.example.com/wms", WmsSourceConfig.V130);

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, bounds, 512, 256);

        assertThat(url.queryParameter("VERSION")).isEqualTo("1.3.0");
        assertThat(url.queryParameter("CRS")).isEqualTo("EPSG:3857");
        assertThat(url.queryParameterNames()).doesNotContain("SRS");
        assertThat(url.queryParameter("BBOX")).isEqualTo("-1000.5,-2000.25,3000,4000.125");
        assertThat(url.queryParameter("EXCEPTIONS")).isEqualTo("XML");
        assertThat(url.queryParameter("WIDTH")).isEqualTo("512");
        assertThat(url.queryParameter("HEIGHT")).isEqualTo("256");
    }

    @Test
    void wms130InWorldCrs84TakesEpsg4326LatitudeFirst() {
        WmsSourceConfig config = config("http://maps.example.com/wms", WmsSourceConfig.V130);
        Bounds bounds = CRS84_METATILE.bounds(GUTTER);
        assertThat(bounds).isEqualTo(new Bounds(-92.8125, -2.8125, 2.8125, 92.8125));

        HttpUrl url = GetMap.url(config, TileMatrixSet.WORLD_CRS84_QUAD, bounds,
                CRS84_METATILE.imageWidth(GUTTER), CRS84_METATILE.imageHeight(GUTTER));

        assertThat(url.queryParameter("CRS")).isEqualTo("EPSG:4326");
        assertThat(url.queryParameterNames()).doesNotContain("SRS");
        assertThat(url.queryParameter("BBOX")).as("minLat,minLon,maxLat,maxLon")
                .isEqualTo("-2.8125,-92.8125,92.8125,2.8125");
        assertThat(url.queryParameter("WIDTH")).isEqualTo("544");
        assertThat(url.queryParameter("HEIGHT")).isEqualTo("544");
    }

    @Test
    void wms111InWorldCrs84TakesLongitudeFirst() {
        WmsSourceConfig config = config("http://maps.example.com/wms", WmsSourceConfig.V111);

        HttpUrl url = GetMap.url(config, TileMatrixSet.WORLD_CRS84_QUAD, CRS84_METATILE.bounds(GUTTER),
                CRS84_METATILE.imageWidth(GUTTER), CRS84_METATILE.imageHeight(GUTTER));

        assertThat(url.queryParameter("SRS")).isEqualTo("EPSG:4326");
        assertThat(url.queryParameterNames()).doesNotContain("CRS");
        assertThat(url.queryParameter("BBOX")).as("minLon,minLat,maxLon,maxLat")
                .isEqualTo("-92.8125,-2.8125,2.8125,92.8125");
    }

    @Test
    void numbersAreNeverInScientificNotation() {
        WmsSourceConfig config = config("http://maps.example.com/wms", WmsSourceConfig.V111);
        Bounds bounds = new Bounds(1.0E-5, -2.5E-7, 1.0E7, 1.2345678901E10);
        assertThat(Double.toString(bounds.minX())).as("what Java prints by itself").isEqualTo("1.0E-5");

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, bounds, 256, 256);

        assertThat(url.queryParameter("BBOX")).isEqualTo("0.00001,-0.00000025,10000000,12345678901");
        assertThat(url.toString()).doesNotContainPattern("BBOX=[^&]*[eE]");
        HttpUrl zero = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(-0.0, 0, 0.0, 1), 256, 256);
        assertThat(zero.queryParameter("BBOX")).isEqualTo("0,0,0,1");
    }

    @Test
    void theConfiguredUrlKeepsItsQueryAndVendorParametersAreAdded() {
        WmsSourceConfig config = new WmsSourceConfig(URI.create("http://h/cgi?map=/srv/x.map"), WmsSourceConfig.V130,
                List.of("countries", "borders"), List.of("default", "thin"), "image/jpeg", false,
                Map.of("map_resolution", "96", "format_options", "dpi:96"), Duration.ofSeconds(5),
                Duration.ofSeconds(60), 3, Duration.ofMillis(500), 4096, 4096);

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(0, 0, 1, 1), 300, 200);

        assertThat(url.host()).isEqualTo("h");
        assertThat(url.encodedPath()).isEqualTo("/cgi");
        assertThat(url.queryParameter("map")).isEqualTo("/srv/x.map");
        assertThat(url.queryParameter("map_resolution")).isEqualTo("96");
        assertThat(url.queryParameter("format_options")).isEqualTo("dpi:96");
        assertThat(url.queryParameter("LAYERS")).isEqualTo("countries,borders");
        assertThat(url.queryParameter("STYLES")).isEqualTo("default,thin");
        assertThat(url.queryParameter("FORMAT")).isEqualTo("image/jpeg");
        assertThat(url.queryParameter("TRANSPARENT")).isEqualTo("FALSE");
        assertThat(url.queryParameter("WIDTH")).isEqualTo("300");
        assertThat(url.queryParameter("HEIGHT")).isEqualTo("200");
        assertThat(url.queryParameterValues("REQUEST")).containsExactly("GetMap");
        assertThat(url.queryParameterNames()).containsExactlyInAnyOrder("map", "SERVICE", "VERSION", "REQUEST",
                "LAYERS", "STYLES", "CRS", "BBOX", "WIDTH", "HEIGHT", "FORMAT", "TRANSPARENT", "EXCEPTIONS",
                "map_resolution", "format_options");
    }

    @Test
    void eachDimensionValueIsSentAsItsParameterAndStylesReplaceTheSources() {
        WmsSourceConfig config = config("http://h/wms?time=old&map=x", WmsSourceConfig.V130);
        Map<String, String> values = new java.util.LinkedHashMap<>();
        values.put("TIME", "2026-11-26T12:05:00Z");
        values.put("styles", "night");
        values.put("CQL_FILTER", "network='gas' & x=1");

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(0, 0, 1, 1), 256, 256,
                new DimensionValues(values));

        assertThat(url.queryParameterValues("TIME")).containsExactly("2026-11-26T12:05:00Z");
        assertThat(url.queryParameterNames()).as("the base URL's own time gives way").doesNotContain("time")
                .doesNotContain("styles").contains("map");
        assertThat(url.queryParameterValues("STYLES")).containsExactly("night");
        assertThat(url.queryParameter("CQL_FILTER")).as("encoded, read back whole").isEqualTo("network='gas' & x=1");
        assertThat(GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(0, 0, 1, 1), 256, 256)
                .queryParameter("time")).as("without dimensions the URL is as configured").isEqualTo("old");
    }

    @Test
    void theBaseUrlsOwnGetMapParametersGiveWayToTheSeeders() {
        WmsSourceConfig config = config("http://h/wms?service=wfs&bbox=1,2,3,4&Width=1&map=x", WmsSourceConfig.V111);

        HttpUrl url = GetMap.url(config, TileMatrixSet.WEB_MERCATOR_QUAD, new Bounds(0, 0, 1, 1), 256, 256);

        assertThat(url.queryParameterNames()).doesNotContain("service", "bbox", "Width").contains("map");
        assertThat(url.queryParameter("SERVICE")).isEqualTo("WMS");
        assertThat(url.queryParameter("BBOX")).isEqualTo("0,0,1,1");
    }

    @Test
    void theCrsOfEachTileMatrixSet() {
        assertThat(GetMap.crs(TileMatrixSet.WEB_MERCATOR_QUAD)).isEqualTo("EPSG:3857");
        assertThat(GetMap.crs(TileMatrixSet.WORLD_CRS84_QUAD)).isEqualTo("EPSG:4326");
        assertThat(GetMap.crs(TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow())).isEqualTo("EPSG:3035");
        assertThat(GetMap.crs(TileMatrixSet.byId("UTM32WGS84Quad").orElseThrow())).isEqualTo("EPSG:32632");
    }

    @Test
    void aNorthingFirstCrsTakesItsBboxNorthingFirstIn130AndEastingFirstIn111() {
        TileMatrixSet laea = TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow();
        Bounds bounds = new Bounds(4000000, 2500000, 4500000, 3000000);

        HttpUrl v130 = GetMap.url(config("http://maps.example.com/wms", WmsSourceConfig.V130), laea, bounds, 256, 256);
        HttpUrl v111 = GetMap.url(config("http://maps.example.com/wms", WmsSourceConfig.V111), laea, bounds, 256, 256);

        assertThat(v130.queryParameter("CRS")).isEqualTo("EPSG:3035");
        assertThat(v130.queryParameter("BBOX")).as("minN,minE,maxN,maxE").isEqualTo("2500000,4000000,3000000,4500000");
        assertThat(v111.queryParameter("SRS")).isEqualTo("EPSG:3035");
        assertThat(v111.queryParameter("BBOX")).as("minE,minN,maxE,maxN").isEqualTo("4000000,2500000,4500000,3000000");
    }

    private static WmsSourceConfig config(String url, String version) {
        return new WmsSourceConfig(URI.create(url), version, List.of("world"), List.of(), "image/png", true, Map.of(),
                Duration.ofSeconds(5), Duration.ofSeconds(60), 3, Duration.ofMillis(500), 4096, 4096);
    }
}
