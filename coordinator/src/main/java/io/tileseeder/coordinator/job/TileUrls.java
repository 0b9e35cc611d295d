package io.tileseeder.coordinator.job;

import io.tileseeder.job.TileFormat;
import io.tileseeder.port.Layout;

/**
 * The tile URL template the documents beside a layer's tiles give their clients: {@code {base}/{folder}/{tile}},
 * where {@code folder} is the cache's folder and {@code tile} the tile's name in it, both as the store's layout has
 * them ({@link Layout#folder}, {@link Layout#template}), and {@code base} is where clients read the store's root
 * ({@link io.tileseeder.port.TileStore#publicUrl}). Absolute, as TileJSON 3.0.0 requires of its tile URLs and as WMTS
 * clients use the template. Each document names the zoom, column and row its own way.
 */
final class TileUrls {

    private TileUrls() {
    }

    /** @param folder the cache's folder, or a template of it with a variable for each dimension */
    static String template(String base, String folder, Layout layout, TileFormat format, String z, String x,
                           String y) {
        return base + "/" + folder + "/" + layout.template(format, z, x, y);
    }
}
