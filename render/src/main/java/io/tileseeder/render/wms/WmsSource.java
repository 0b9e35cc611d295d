package io.tileseeder.render.wms;

import io.tileseeder.grid.Metatile;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.MetatileSource;
import java.awt.image.BufferedImage;
import java.util.Optional;

/**
 * A {@code wms} layer's metatiles: one GetMap per metatile covering it and its gutter, in the tile matrix set's
 * CRS, at the metatile's size in pixels, decoded and copied into the metatile raster.
 */
public final class WmsSource implements MetatileSource {

    private final WmsSourceConfig config;
    private final WmsClient client;

    public WmsSource(WmsSourceConfig config, WmsClient client) {
        this.config = config;
        this.client = client;
    }

    @Override
    public Optional<MetatileImage> render(Metatile metatile, int gutter, DimensionValues dimensions)
            throws WmsException, InterruptedException {
        int width = metatile.imageWidth(gutter);
        int height = metatile.imageHeight(gutter);
        var url = GetMap.url(config, metatile.tileMatrixSet(), metatile.bounds(gutter), width, height, dimensions);
        BufferedImage image = client.getMap(config, url, width, height, MetatileImage.raster(metatile, gutter));
        return Optional.of(MetatileImage.copyOf(metatile, gutter, image));
    }
}
