package io.tileseeder.render.tile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.layer.WmtsSourceConfig;
import io.tileseeder.render.wms.WmsClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A WMTS layer's capabilities read into a tile source: its template, levels, style and dimensions. */
class WmtsSourceTest {

    /** Two matrices of WebMercatorQuad (levels 2 and 3) and one of no level, a Time dimension, two formats. */
    private static final String CAPABILITIES = """
            <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1"
                version="1.0.0">
              <Contents>
                <Layer>
                  <ows:Identifier>radar</ows:Identifier>
                  <Style isDefault="true"><ows:Identifier>default</ows:Identifier></Style>
                  <Style><ows:Identifier>night</ows:Identifier></Style>
                  <Format>image/jpeg</Format>
                  <Dimension><ows:Identifier>Time</ows:Identifier><Default>2026-11-26</Default>
                    <Value>2026-11-26</Value></Dimension>
                  <Dimension><ows:Identifier>Run</ows:Identifier><Default>r1</Default><Value>r1</Value></Dimension>
                  <TileMatrixSetLink><TileMatrixSet>other</TileMatrixSet></TileMatrixSetLink>
                  <TileMatrixSetLink><TileMatrixSet>g</TileMatrixSet></TileMatrixSetLink>
                  <ResourceURL format="image/jpeg" resourceType="tile"
                      template="https://w.example.com/j/{Style}/{Time}/{Run}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.jpg"/>
                  <ResourceURL format="image/png" resourceType="tile"
                      template="https://w.example.com/p/{Style}/{Time}/{Run}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png"/>
                </Layer>
                <TileMatrixSet>
                  <ows:Identifier>other</ows:Identifier>
                  <ows:SupportedCRS>urn:ogc:def:crs:EPSG::4326</ows:SupportedCRS>
                  <TileMatrix><ows:Identifier>0</ows:Identifier><ScaleDenominator>279541132.0143589</ScaleDenominator>
                    <TopLeftCorner>90 -180</TopLeftCorner><TileWidth>256</TileWidth><TileHeight>256</TileHeight>
                    <MatrixWidth>2</MatrixWidth><MatrixHeight>1</MatrixHeight></TileMatrix>
                </TileMatrixSet>
                <TileMatrixSet>
                  <ows:Identifier>g</ows:Identifier>
                  <ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>
                  <TileMatrix><ows:Identifier>two</ows:Identifier><ScaleDenominator>139770566.0071794</ScaleDenominator>
                    <TopLeftCorner>-20037508.3427892 20037508.3427892</TopLeftCorner><TileWidth>256</TileWidth>
                    <TileHeight>256</TileHeight><MatrixWidth>4</MatrixWidth><MatrixHeight>4</MatrixHeight></TileMatrix>
                  <TileMatrix><ows:Identifier>three</ows:Identifier><ScaleDenominator>69885283.00358972</ScaleDenominator>
                    <TopLeftCorner>-20037508.3427892 20037508.3427892</TopLeftCorner><TileWidth>256</TileWidth>
                    <TileHeight>256</TileHeight><MatrixWidth>8</MatrixWidth><MatrixHeight>8</MatrixHeight></TileMatrix>
                  <TileMatrix><ows:Identifier>odd</ows:Identifier><ScaleDenominator>12345</ScaleDenominator>
                    <TopLeftCorner>0 0</TopLeftCorner><TileWidth>256</TileWidth>
                    <TileHeight>256</TileHeight><MatrixWidth>1</MatrixWidth><MatrixHeight>1</MatrixHeight></TileMatrix>
                </TileMatrixSet>
              </Contents>
            </Capabilities>
            """;

    @Test
    void theTemplateOfThePngTilesInTheLayersSetWithItsDimensionAndTheOthersDefault() throws Exception {
        TileSourceConfig tiles = source(null, null, null).tileSource(bytes(CAPABILITIES));

        assertThat(tiles.minZoom()).isEqualTo(2);
        assertThat(tiles.maxZoom()).isEqualTo(3);
        assertThat(tiles.tileSize()).isEqualTo(256);
        assertThat(tiles.url(3, 5, 1, 8, new DimensionValues(Map.of("TIME", "2026-11-27"))))
                .isEqualTo("https://w.example.com/p/default/2026-11-27/r1/g/three/1/5.png");
    }

    @Test
    void aChosenStyleFormatAndSet() throws Exception {
        TileSourceConfig tiles = source("night", "image/jpeg", "g").tileSource(bytes(CAPABILITIES));
        assertThat(tiles.url(2, 0, 3, 4, new DimensionValues(Map.of("TIME", "2026-11-26"))))
                .isEqualTo("https://w.example.com/j/night/2026-11-26/r1/g/two/3/0.jpg");
    }

    /**
     * A set in another CRS is a grid of its own, read in the EPSG axis order (latitude first for EPSG:4326): all its
     * matrices are levels, and the tile source warps from it.
     */
    @Test
    void aSetInAnotherCrsIsAGridOfItsOwn() throws Exception {
        TileSourceConfig tiles = source(null, null, "other").tileSource(bytes(CAPABILITIES));
        assertThat(tiles.grid()).isNotNull();
        assertThat(tiles.grid().referenceSystem().code()).isEqualTo("EPSG:4326");
        TileMatrix level0 = tiles.grid().matrix(0);
        assertThat(level0.left()).isEqualTo(-180);
        assertThat(level0.top()).isEqualTo(90);
        assertThat(level0.tileSpanX()).isCloseTo(180, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(tiles.minZoom()).isZero();
        assertThat(tiles.maxZoom()).isZero();
        assertThat(tiles.url(0, 1, 0, 1, new DimensionValues(Map.of("TIME", "2026-11-27"))))
                .isEqualTo("https://w.example.com/p/default/2026-11-27/r1/other/0/0/1.png");
    }

    /** A set in the layer's CRS none of whose matrices is one of the layer's set's is also a grid of its own. */
    @Test
    void aSetOfAnotherGridInTheSameCrsIsAGridOfItsOwn() throws Exception {
        String oddOnly = CAPABILITIES.replaceAll("(?s)<TileMatrix><ows:Identifier>(two|three)</ows:Identifier>.*?"
                + "</TileMatrix>", "");
        TileSourceConfig tiles = source(null, null, "g").tileSource(bytes(oddOnly));
        assertThat(tiles.grid()).isNotNull();
        assertThat(tiles.grid().referenceSystem()).isEqualTo(TileMatrixSet.WEB_MERCATOR_QUAD.referenceSystem());
        assertThat(tiles.grid().maxZoom()).isZero();
        assertThat(tiles.url(0, 0, 0, 1, new DimensionValues(Map.of("TIME", "2026-11-27"))))
                .isEqualTo("https://w.example.com/p/default/2026-11-27/r1/g/odd/0/0.png");
    }

    /** A layer with a STYLES dimension and no style chosen: the job's style is the template's {@code {Style}}. */
    @Test
    void aStylesDimensionIsTheWmtsStyle() throws Exception {
        WmtsSource styled = new WmtsSource(config("radar", null, null, null), TileMatrixSet.WEB_MERCATOR_QUAD,
                List.of(Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("default", "night"), null,
                        "default")), new WmsClient(1));
        assertThat(styled.tileSource(bytes(CAPABILITIES)).url(3, 5, 1, 8,
                new DimensionValues(Map.of("STYLES", "night"))))
                .isEqualTo("https://w.example.com/p/night/2026-11-26/r1/g/three/1/5.png");
    }

    @Test
    void whatCannotBeCascadedIsNamed() {
        assertThatThrownBy(() -> source("dusk", null, null).tileSource(bytes(CAPABILITIES)))
                .hasMessageContaining("no style dusk; it has [default, night]");
        assertThatThrownBy(() -> source(null, "image/webp", null).tileSource(bytes(CAPABILITIES)))
                .hasMessageContaining("no tile format image/webp; its formats [image/jpeg, image/png]");
        assertThatThrownBy(() -> source(null, null, "other").tileSource(bytes(CAPABILITIES.replace(
                "urn:ogc:def:crs:EPSG::4326", "urn:ogc:def:crs:EPSG::999999"))))
                .hasMessageContaining("tile matrix set other: EPSG:999999 is not a CRS of the EPSG registry");
        assertThatThrownBy(() -> source(null, null, "nine").tileSource(bytes(CAPABILITIES)))
                .hasMessageContaining("no tile matrix set nine; it has [other, g]");
        assertThatThrownBy(() -> new WmtsSource(config("sea", null, null, null), TileMatrixSet.WEB_MERCATOR_QUAD,
                List.of(), new WmsClient(1)).tileSource(bytes(CAPABILITIES)))
                .hasMessageContaining("no such layer; it has [radar]");
        assertThatThrownBy(() -> source(null, null, null).tileSource(bytes("<html><body>nope</body></html>")))
                .hasMessageContaining("is not WMTS 1.0 capabilities");
    }

    /**
     * A WMTS without RESTful templates (as a GeoServer's or MapCache's KVP endpoint may be): its GetTile address
     * (the KVP one of two) with WMTS 1.0.0's GetTile parameters, each percent-encoded, and the layer's dimensions.
     */
    @Test
    void aKvpOnlyWmtsIsReadThroughItsGetTileAddress() throws Exception {
        String kvp = CAPABILITIES.replaceAll("(?s)<ResourceURL.*?/>", "").replace("<Contents>", """
                <ows:OperationsMetadata>
                  <ows:Operation name="GetCapabilities"><ows:DCP><ows:HTTP>
                    <ows:Get xlink:href="https://w.example.com/caps?"/></ows:HTTP></ows:DCP></ows:Operation>
                  <ows:Operation name="GetTile"><ows:DCP><ows:HTTP>
                    <ows:Get xlink:href="https://w.example.com/rest/"><ows:Constraint name="GetEncoding">
                      <ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>
                    <ows:Get xlink:href="https://w.example.com/service?map=radar &amp; more&amp;"><ows:Constraint
                        name="GetEncoding"><ows:AllowedValues><ows:Value>KVP</ows:Value></ows:AllowedValues>
                      </ows:Constraint></ows:Get></ows:HTTP></ows:DCP></ows:Operation>
                </ows:OperationsMetadata>
                <Contents>""").replace("xmlns:ows=", "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:ows=");

        TileSourceConfig tiles = source("night", null, null).tileSource(bytes(kvp));

        assertThat(tiles.url(3, 5, 1, 8, new DimensionValues(Map.of("TIME", "2026-11-27T12:00:00Z"))))
                .isEqualTo("https://w.example.com/service?map=radar & more&SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0"
                        + "&LAYER=radar&STYLE=night&FORMAT=image%2Fjpeg&TILEMATRIXSET=g&TILEMATRIX=three&TILEROW=1"
                        + "&TILECOL=5&Time=2026-11-27T12:00:00Z&Run=r1");
        assertThatThrownBy(() -> source(null, "image/png", null).tileSource(bytes(kvp)))
                .hasMessageContaining("no tile format image/png; its formats [image/jpeg]");
        assertThatThrownBy(() -> source(null, null, null).tileSource(bytes(kvp.replace("\"GetTile\"", "\"Other\""))))
                .hasMessageContaining("no RESTful tile template and no KVP GetTile address");
    }

    /** A document type declaration, the way to XXE, is refused before any entity is read. */
    @Test
    void aDoctypeIsRefused() {
        String hostile = "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + CAPABILITIES.replace("<ows:Identifier>radar</ows:Identifier>", "<ows:Identifier>&x;</ows:Identifier>");
        assertThatThrownBy(() -> source(null, null, null).tileSource(bytes(hostile)))
                .hasMessageContaining("not XML this reader takes").hasMessageNotContaining("root:");
    }

    private static WmtsSource source(String style, String format, String set) {
        return new WmtsSource(config("radar", style, format, set), TileMatrixSet.WEB_MERCATOR_QUAD,
                List.of(Dimension.declare("TIME", Dimension.Kind.TIME, List.of(), null, "2026-11-26")),
                new WmsClient(1));
    }

    private static WmtsSourceConfig config(String layer, String style, String format, String set) {
        return new WmtsSourceConfig(URI.create("https://w.example.com/WMTSCapabilities.xml"), layer, style, format,
                set, Set.of(404), TileSourceConfig.Resampling.BILINEAR, Duration.ofSeconds(5), Duration.ofSeconds(60),
                3, Duration.ofMillis(500));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
