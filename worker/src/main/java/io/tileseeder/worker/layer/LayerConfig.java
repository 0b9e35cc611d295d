package io.tileseeder.worker.layer;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.awt.Color;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A layer as configured on the server (see {@link LayerCatalogFile} for the file format).
 *
 * @param gutter      pixels rendered around each metatile so strokes are not clipped at its edges
 * @param background  what JPEG tiles, which have no transparency, are drawn over
 * @param pngLevel    deflate level of PNG tiles, 0..9
 * @param jpegQuality JPEG quality, 0..1
 * @param data        the GeoJSON files of the {@code vector} source
 */
public record LayerConfig(String name, String title, String attribution, int minZoom, int maxZoom,
                          Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile,
                          int gutter, EmptyTilePolicy emptyTiles, Color background, int pngLevel,
                          float jpegQuality, List<DataFile> data, List<StyleRule> style) {

    public LayerConfig {
        tileMatrixSets = Set.copyOf(tileMatrixSets);
        formats = Set.copyOf(formats);
        data = List.copyOf(data);
        style = List.copyOf(style);
    }

    public LayerInfo info() {
        return new LayerInfo(name, title, attribution, minZoom, maxZoom, tileMatrixSets, formats, metatile);
    }

    /**
     * A data file: on the filesystem, or a resource bundled in the application ({@code classpath:} prefix).
     */
    public record DataFile(String location, Path path, String resource) {

        public static DataFile file(Path path) {
            return new DataFile(path.toString(), path, null);
        }

        public static DataFile resource(String resource) {
            return new DataFile("classpath:" + resource, null, resource);
        }
    }
}
