package io.tileseeder.render;

import io.tileseeder.grid.Metatile;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.EmptyTilePolicy;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.render.encode.TileEncoder;
import io.tileseeder.render.encode.UniformTiles;
import java.io.IOException;
import java.util.Optional;

/**
 * Draws a layer's metatile and encodes its tiles: all a tile's bytes depend on, with no store, lock or task, so the
 * worker's pipeline and the coordinator's dry run make the same bytes. Tiles of one colour (inside a country, or
 * fully transparent) are encoded once per colour and format ({@link UniformTiles}). Thread-safe; one per process.
 */
public final class MetatileRenderer {

    private final LayerResources layers;
    private final UniformTiles uniformTiles = new UniformTiles();

    public MetatileRenderer(LayerResources layers) {
        this.layers = layers;
    }

    /** The layers this renderer draws: their sources and encoders. */
    public LayerResources layers() {
        return layers;
    }

    /**
     * Draws the metatile (with the layer's gutter) of the cache of the given dimension values; its tiles are then
     * encoded one by one by {@link Drawn#encode}.
     *
     * @throws IOException if the layer's data cannot be read or its upstream WMS fails
     */
    public Drawn draw(LayerConfig layer, Metatile metatile, TileFormat format, DimensionValues dimensions)
            throws IOException, InterruptedException {
        MetatileImage image = layers.source(layer).render(metatile, layer.gutter(), dimensions).orElse(null);
        return new Drawn(layer, image, format, layers.encoder(layer, format));
    }

    /** A drawn metatile, whose tiles are encoded on demand. */
    public final class Drawn {

        private final LayerConfig layer;
        private final MetatileImage image;
        private final TileFormat format;
        private final TileEncoder encoder;

        private Drawn(LayerConfig layer, MetatileImage image, TileFormat format, TileEncoder encoder) {
            this.layer = layer;
            this.image = image;
            this.format = format;
            this.encoder = encoder;
        }

        /**
         * The tile's encoded bytes; empty when nothing is drawn in it (fully transparent) and the layer's policy
         * skips empty tiles ({@link EmptyTilePolicy#SKIP}). A tile that is exactly an upstream tile in the format
         * ({@link MetatileImage#upstream}, {@link TileFormat#holds}) is that tile's bytes, unless it is empty: an
         * empty tile stored is always the layer's own.
         */
        public Optional<byte[]> encode(TileCoord tile) {
            TileView view = image == null ? null : image.tile(tile);
            TileContent content = view == null ? TileContent.EMPTY : TileContent.of(view);
            if (content.isEmpty() && layer.emptyTiles() == EmptyTilePolicy.SKIP) {
                return Optional.empty();
            }
            byte[] original = content.isEmpty() ? null : image.upstream().get(tile);
            if (original != null && format.holds(original)) {
                return Optional.of(original);
            }
            return Optional.of(uniformTiles.encode(encoder, view, content));
        }
    }
}
