package io.tileseeder.render;

import io.tileseeder.grid.Metatile;
import io.tileseeder.job.DimensionValues;
import java.io.IOException;
import java.util.Optional;

/** Draws a layer's metatiles: from its own features ({@link VectorRenderer}) or by asking an upstream WMS. */
@FunctionalInterface
public interface MetatileSource {

    /**
     * The metatile plus {@code gutter} pixels on each side, or empty if nothing at all is drawn there.
     *
     * @param dimensions the value of each of the layer's dimensions, sent with the request
     *
     * @throws IOException if the data or the upstream fails; the message says what and where
     */
    Optional<MetatileImage> render(Metatile metatile, int gutter, DimensionValues dimensions)
            throws IOException, InterruptedException;
}
