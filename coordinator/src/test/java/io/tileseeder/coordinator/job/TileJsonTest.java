package io.tileseeder.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.adapters.file.FileTileStore;
import io.tileseeder.port.TileCache;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.EncodedTile;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileKey;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TileJsonTest {

    private static final TileCache MERCATOR_CACHE = new TileCache("world", TileMatrixSet.WEB_MERCATOR_QUAD);

    private static final LayerInfo WORLD = new LayerInfo("world", "World countries", "Natural Earth", 0, 14,
            Set.copyOf(TileMatrixSet.builtIn()), Set.of(TileFormat.values()), MetatileSize.DEFAULT);
    private static final String BASE = "https://tiles.example.com/cache";

    @TempDir
    Path root;

    /**
     * TileJSON 3.0.0, 3.2: "All endpoint urls MUST be absolute"; minzoom and maxzoom are those the cache holds (here
     * z0-5 of a layer of z0-14).
     */
    @Test
    void describesTheZoomsHeldWithAnAbsoluteTileUrl() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(TileJson.document(WORLD, MERCATOR_CACHE, TileFormat.PNG, BASE,
                Layout.XYZ, new TileJson.Zooms(0, 5)));

        assertThat(doc.path("tilejson").asText()).isEqualTo("3.0.0");
        assertThat(doc.path("name").asText()).isEqualTo("World countries");
        assertThat(doc.path("attribution").asText()).isEqualTo("Natural Earth");
        assertThat(doc.path("scheme").asText()).isEqualTo("xyz");
        assertThat(doc.path("tiles")).hasSize(1);
        assertThat(doc.path("tiles").get(0).asText())
                .isEqualTo("https://tiles.example.com/cache/world/WebMercatorQuad/{z}/{x}/{y}.png");
        assertThat(doc.path("minzoom").asInt()).isZero();
        assertThat(doc.path("maxzoom").asInt()).isEqualTo(5);
        assertThat(doc.path("bounds").get(1).asDouble()).isEqualTo(-85.0511);
        assertThat(doc.path("tileMatrixSet").asText()).isEqualTo("WebMercatorQuad");
        assertThat(doc.path("crs").asText()).isEqualTo("EPSG:3857");
        assertThat(TileJson.fileName(TileFormat.PNG)).isEqualTo("tilejson-png.json");
    }

    /**
     * In every layout, the URL a client makes of the template for z3 x5 y2 (row 2 from the top: TMS row 5, quadkey
     * 121) is where the store puts that tile.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void theTileUrlMatchesWhereTheStorePutsTiles(Layout layout) throws Exception {
        for (TileFormat format : TileFormat.values()) {
            JsonNode doc = new ObjectMapper().readTree(TileJson.document(WORLD, MERCATOR_CACHE, format, BASE, layout,
                    new TileJson.Zooms(2, 9)));
            String template = doc.path("tiles").get(0).asText();
            TileKey key = new TileKey("world", TileMatrixSet.WEB_MERCATOR_QUAD, TileCoord.of(3, 5, 2), format);
            String tms = layout == Layout.TMS ? "tms" : "xyz";
            assertThat(doc.path("scheme").asText()).isEqualTo(tms);
            assertThat(template.replace("{z}", "3").replace("{x}", "5").replace("{y}", tms.equals("tms") ? "5" : "2")
                    .replace("{quadkey}", "121")).as("%s", format).isEqualTo(BASE + "/" + layout.path(key));
            assertThat(doc.path("minzoom").asInt()).isEqualTo(2);
            assertThat(doc.path("maxzoom").asInt()).isEqualTo(9);
        }
    }

    /**
     * Both documents build their tile URL in one place: the same template, each with its own placeholders, in each
     * layout a WMTS template can name.
     */
    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"XYZ", "WMTS"})
    void theTileUrlIsTheWmtsCapabilitiesTemplate(Layout layout) throws Exception {
        String tileJson = new ObjectMapper().readTree(TileJson.document(WORLD, MERCATOR_CACHE, TileFormat.WEBP,
                "file:///srv/tiles", layout, new TileJson.Zooms(0, 3))).path("tiles").get(0).asText();
        Element url = (Element) DocumentBuilderFactory.newNSInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(WmtsCapabilities.document(WORLD, TileMatrixSet.WEB_MERCATOR_QUAD,
                        TileFormat.WEBP, "file:///srv/tiles", layout)))
                .getElementsByTagNameNS("http://www.opengis.net/wmts/1.0", "ResourceURL").item(0);

        assertThat(tileJson.replace("{z}", "{TileMatrix}").replace("{x}", "{TileCol}").replace("{y}", "{TileRow}"))
                .isEqualTo(url.getAttribute("template"));
    }

    /** TileJSON 3.0.0, 3.15: the global-mercator profile is assumed; there is no way to name another. */
    @Test
    void onlyWebMercatorQuadIsDescribed() {
        assertThat(TileJson.describes(TileMatrixSet.WEB_MERCATOR_QUAD)).isTrue();
        assertThat(TileJson.describes(TileMatrixSet.WORLD_CRS84_QUAD)).isFalse();
    }

    @Test
    void theZoomsHeldAreTheLowestAndHighestOfTheLayersThatHoldATile() throws Exception {
        FileTileStore store = new FileTileStore(root);
        assertThat(TileJson.zoomsHeld(store, MERCATOR_CACHE, WORLD)).as("an empty store").isEmpty();
        store.write(List.of(tile(TileMatrixSet.WORLD_CRS84_QUAD, TileCoord.of(4, 0, 0), TileFormat.PNG)));
        assertThat(TileJson.zoomsHeld(store, MERCATOR_CACHE, WORLD)).as("tiles of another matrix set only").isEmpty();

        store.write(List.of(tile(TileMatrixSet.WEB_MERCATOR_QUAD, TileCoord.of(7, 3, 3), TileFormat.PNG),
                tile(TileMatrixSet.WEB_MERCATOR_QUAD, TileCoord.of(2, 1, 1), TileFormat.PNG),
                tile(TileMatrixSet.WEB_MERCATOR_QUAD, TileCoord.of(4, 1, 1), TileFormat.JPEG)));

        assertThat(TileJson.zoomsHeld(store, MERCATOR_CACHE, WORLD)).contains(new TileJson.Zooms(2, 7));
        LayerInfo shallow = new LayerInfo("world", "World", "", 3, 5, Set.copyOf(TileMatrixSet.builtIn()),
                Set.of(TileFormat.values()), MetatileSize.DEFAULT);
        assertThat(TileJson.zoomsHeld(store, MERCATOR_CACHE, shallow)).as("within the layer's zoom levels")
                .contains(new TileJson.Zooms(4, 4));
    }

    private static EncodedTile tile(TileMatrixSet tms, TileCoord coord, TileFormat format) {
        return new EncodedTile(new TileKey("world", tms, coord, format), new byte[] {1});
    }
}
