package io.tileseeder.coordinator.job;

import io.tileseeder.job.TileFormat;

/**
 * The tile URL template the documents beside a layer's tiles give their clients:
 * {@code {base}/{cache}/{z}/{x}/{y}.{ext}} ({@code {cache}} is {@code {layer}/{tileMatrixSet}}, then a folder per
 * dimension value: {@link io.tileseeder.port.TileCache#path}), where the store puts each tile below its root
 * ({@link io.tileseeder.port.TileKey#path}) and {@code base} is where clients read that root
 * ({@link io.tileseeder.port.TileStore#publicUrl}). Absolute, as TileJSON 3.0.0 requires of its tile URLs and as WMTS
 * clients use the template. Each document names the zoom, column and row its own way.
 */
final class TileUrls {

    private TileUrls() {
    }

    /** @param cache the cache's folder, or a template of it with a variable for each dimension */
    static String template(String base, String cache, TileFormat format, String z, String x, String y) {
        return base + "/" + cache + "/" + z + "/" + x + "/" + y + "." + format.extension();
    }
}
