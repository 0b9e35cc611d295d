package io.tileseeder.coordinator.job;

import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;

/**
 * The tile URL template the documents beside a layer's tiles give their clients:
 * {@code {base}/{layer}/{tileMatrixSet}/{z}/{x}/{y}.{ext}}, where the store puts each tile below its root
 * ({@link io.tileseeder.port.TileKey#path}) and {@code base} is where clients read that root
 * ({@link io.tileseeder.port.TileStore#publicUrl}). Absolute, as TileJSON 3.0.0 requires of its tile URLs and as WMTS
 * clients use the template. Each document names the zoom, column and row its own way.
 */
final class TileUrls {

    private TileUrls() {
    }

    static String template(String base, String layer, TileMatrixSet tms, TileFormat format, String z, String x,
                           String y) {
        return base + "/" + layer + "/" + tms.id() + "/" + z + "/" + x + "/" + y + "." + format.extension();
    }
}
