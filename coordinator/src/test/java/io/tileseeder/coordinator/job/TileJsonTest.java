package io.tileseeder.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileKey;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TileJsonTest {

    private static final LayerInfo WORLD = new LayerInfo("world", "World countries", "Natural Earth", 0, 14,
            Set.of(TileMatrixSet.values()), Set.of(TileFormat.values()), MetatileSize.DEFAULT);

    @Test
    void describesTheLayersTilesRelativeToTheDocument() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(TileJson.document(WORLD, TileMatrixSet.WEB_MERCATOR_QUAD,
                TileFormat.PNG));

        assertThat(doc.path("tilejson").asText()).isEqualTo("3.0.0");
        assertThat(doc.path("name").asText()).isEqualTo("World countries");
        assertThat(doc.path("attribution").asText()).isEqualTo("Natural Earth");
        assertThat(doc.path("scheme").asText()).isEqualTo("xyz");
        assertThat(doc.path("tiles")).hasSize(1);
        assertThat(doc.path("tiles").get(0).asText()).isEqualTo("{z}/{x}/{y}.png");
        assertThat(doc.path("minzoom").asInt()).isZero();
        assertThat(doc.path("maxzoom").asInt()).isEqualTo(14);
        assertThat(doc.path("bounds").get(1).asDouble()).isEqualTo(-85.0511);
        assertThat(doc.path("tileMatrixSet").asText()).isEqualTo("WebMercatorQuad");
        assertThat(doc.path("crs").asText()).isEqualTo("EPSG:3857");
        assertThat(TileJson.fileName(TileFormat.PNG)).isEqualTo("tilejson-png.json");
    }

    @Test
    void theTileUrlMatchesWhereTheStorePutsTiles() throws Exception {
        for (TileMatrixSet tms : TileMatrixSet.values()) {
            for (TileFormat format : TileFormat.values()) {
                JsonNode doc = new ObjectMapper().readTree(TileJson.document(WORLD, tms, format));
                String template = doc.path("tiles").get(0).asText();
                TileKey key = new TileKey("world", tms, TileCoord.of(3, 5, 2), format);
                String expected = key.path().substring(("world/" + tms.id() + "/").length());
                assertThat(template.replace("{z}", "3").replace("{x}", "5").replace("{y}", "2"))
                        .as("%s %s", tms, format).isEqualTo(expected);
            }
        }
        JsonNode crs84 = new ObjectMapper().readTree(TileJson.document(WORLD, TileMatrixSet.WORLD_CRS84_QUAD,
                TileFormat.JPEG));
        assertThat(crs84.path("bounds").get(1).asDouble()).isEqualTo(-90);
        assertThat(crs84.path("crs").asText()).isEqualTo("OGC:CRS84");
    }
}
