package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.port.Layout;
import org.junit.jupiter.api.Test;

class CacheAddressTest {

    @Test
    void aFolderOrS3CacheIsItsStoreLayerAndDimensionFolders() {
        CacheAddress relative = CacheAddress.parse("tiles/world/WebMercatorQuad/", Layout.XYZ);
        assertThat(relative.store()).isEqualTo("tiles");
        assertThat(relative.cache().path()).isEqualTo("world/WebMercatorQuad");

        assertThat(CacheAddress.parse("world/WebMercatorQuad", Layout.XYZ).store()).isEqualTo(".");
        assertThat(CacheAddress.parse("/world/WebMercatorQuad", Layout.XYZ).store()).isEqualTo("/");
        assertThat(CacheAddress.parse("/data/tiles/world/WebMercatorQuad", Layout.TMS).store())
                .isEqualTo("/data/tiles");

        CacheAddress s3 = CacheAddress.parse(
                "s3://bucket/a/b/radar/WebMercatorQuad/2026-11-26T12:05:00Z/network%3D%27gas%27", Layout.XYZ);
        assertThat(s3.store()).isEqualTo("s3://bucket/a/b");
        assertThat(s3.cache().layer()).isEqualTo("radar");
        assertThat(s3.cache().dimensions().values().values()).containsExactly("2026-11-26T12:05:00Z", "network='gas'");
        assertThat(s3.cache().path()).isEqualTo("radar/WebMercatorQuad/2026-11-26T12:05:00Z/network%3D%27gas%27");
        assertThat(CacheAddress.parse("s3://bucket/world/WebMercatorQuad", Layout.XYZ).store())
                .isEqualTo("s3://bucket");
        assertThat(CacheAddress.parse("az://tiles/cache/world/WebMercatorQuad", Layout.XYZ).store())
                .isEqualTo("az://tiles/cache");
        assertThat(CacheAddress.parse("gs://tiles/world/WebMercatorQuad/", Layout.QUADKEY).store())
                .isEqualTo("gs://tiles");
        assertThatThrownBy(() -> CacheAddress.parse("gs://WebMercatorQuad", Layout.XYZ))
                .hasMessageContaining("is not the folder of a Web Mercator cache");
    }

    @Test
    void aCacheInTheWmtsLayoutHasItsStyleFolderBetweenLayerAndSet() {
        CacheAddress wmts = CacheAddress.parse("s3://bucket/tiles/world/default/WebMercatorQuad", Layout.WMTS);

        assertThat(wmts.store()).isEqualTo("s3://bucket/tiles");
        assertThat(wmts.cache().layer()).isEqualTo("world");
        assertThatThrownBy(() -> CacheAddress.parse("tiles/world/WebMercatorQuad", Layout.WMTS))
                .hasMessage("'tiles/world/WebMercatorQuad' is not the folder of a Web Mercator cache in the wmts "
                        + "layout: PMTiles holds Web Mercator tiles, so CACHE is "
                        + "{store}/{layer}/default/WebMercatorQuad (then a folder per dimension value), e.g. tiles/world/default/WebMercatorQuad or "
                        + "s3://bucket/prefix/world/default/WebMercatorQuad (az:// and gs:// alike)");
        assertThatThrownBy(() -> CacheAddress.parse("default/WebMercatorQuad", Layout.WMTS))
                .hasMessageContaining("is not the folder of a Web Mercator cache");
    }

    @Test
    void anythingButAWebMercatorCacheIsRefused() {
        for (String text : new String[] {"tiles/world", "tiles/world/WorldCRS84Quad", "WebMercatorQuad",
                "s3://world/WebMercatorQuad", "s3://bucket", ""}) {
            assertThatThrownBy(() -> CacheAddress.parse(text, Layout.XYZ)).as(text)
                    .hasMessageContaining("is not the folder of a Web Mercator cache");
        }
    }
}
