package io.tileseeder.bench;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.VectorSourceConfig;
import io.tileseeder.render.MetatileImage;
import io.tileseeder.render.TileView;
import io.tileseeder.render.VectorRenderer;
import io.tileseeder.render.VectorSource;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tiles the benchmarks encode: one 4×4 metatile of the bundled {@code world} layer, drawn by the
 * product's own renderer (WebMercatorQuad z5 over central Europe, where country borders are densest), cut
 * into 16 views of its raster exactly as the worker cuts them.
 */
public final class WorldMetatileFixture {

    /** Metatile column 4, row 2 at z5: tiles x 16..19, y 8..11, about 0°E–45°E and 41°N–67°N. */
    private static final Metatile METATILE =
            new Metatile(TileMatrixSet.WEB_MERCATOR_QUAD, 5, 4, 2, new MetatileSize(4, 4));

    public static final int TILE_COUNT = 16;

    private final MetatileImage image;
    private final List<TileView> tiles = new ArrayList<>();
    private final List<BufferedImage> subimages = new ArrayList<>();

    public WorldMetatileFixture() {
        LayerConfig world = LayerCatalogFile.bundled().layer("world").orElseThrow();
        try {
            VectorSourceConfig source = (VectorSourceConfig) world.source();
            image = VectorRenderer.render(VectorSource.load(source.data()), METATILE, world.gutter(), source.style())
                    .orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (TileCoord tile : METATILE.tiles()) {
            tiles.add(image.tile(tile));
            int left = world.gutter() + (tile.x() - METATILE.tiles().minX()) * TileMatrixSet.TILE_SIZE;
            int top = world.gutter() + (tile.y() - METATILE.tiles().minY()) * TileMatrixSet.TILE_SIZE;
            subimages.add(image.image().getSubimage(left, top, TileMatrixSet.TILE_SIZE, TileMatrixSet.TILE_SIZE));
        }
    }

    /** The whole metatile, gutter included ({@code TYPE_INT_ARGB}). */
    public BufferedImage metatile() {
        return image.image();
    }

    /** The tiles, row by row, as views into the metatile's pixels. */
    public List<TileView> tiles() {
        return List.copyOf(tiles);
    }

    /** The same tiles as {@link BufferedImage#getSubimage} views (sharing the metatile's raster). */
    public List<BufferedImage> subimages() {
        return List.copyOf(subimages);
    }
}
