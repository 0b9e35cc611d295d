package io.tileseeder.layer;

import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A layer as configured on the server (see {@link LayerCatalogFile} for the file format).
 *
 * @param gutter      pixels rendered around each metatile so strokes are not clipped at its edges
 * @param background  what JPEG tiles, which have no transparency, are drawn over
 * @param pngLevel    deflate level of PNG tiles, 0..9
 * @param jpegQuality JPEG quality, 0..1
 * @param webpQuality lossy WebP quality, 0..1
 * @param source      where the pixels come from
 * @param coverages   areas a job may name instead of giving its own: name → GeoJSON in CRS84
 * @param configHash  SHA-256 of the layer's entry in the file (see {@link LayerCatalogFile})
 * @param dimensions  request parameters whose every value is a cache of its own, in the order of their folders
 */
public record LayerConfig(String name, String title, String attribution, int minZoom, int maxZoom,
                          Set<TileMatrixSet> tileMatrixSets, Set<TileFormat> formats, MetatileSize metatile,
                          int gutter, EmptyTilePolicy emptyTiles, Color background, int pngLevel,
                          float jpegQuality, float webpQuality, SourceConfig source, Map<String, String> coverages,
                          String configHash, List<Dimension> dimensions) {

    public LayerConfig {
        tileMatrixSets = Set.copyOf(tileMatrixSets);
        formats = Set.copyOf(formats);
        coverages = Map.copyOf(coverages);
        dimensions = List.copyOf(dimensions);
    }

    public LayerInfo info() {
        return new LayerInfo(name, title, attribution, minZoom, maxZoom, tileMatrixSets, formats, metatile,
                maxMetatile(source, gutter).orElseThrow(), coverages, configHash, dimensions);
    }

    /**
     * The largest metatile a job may ask for: any for a vector source; for a WMS, the largest whose image with
     * its gutter the upstream accepts. Empty if not even one tile fits.
     */
    public static Optional<MetatileSize> maxMetatile(SourceConfig source, int gutter) {
        if (!(source instanceof WmsSourceConfig wms)) {
            return Optional.of(new MetatileSize(MetatileSize.MAX_SIDE, MetatileSize.MAX_SIDE));
        }
        int width = Math.min(MetatileSize.MAX_SIDE, (wms.maxWidth() - 2 * gutter) / TileMatrixSet.TILE_SIZE);
        int height = Math.min(MetatileSize.MAX_SIDE, (wms.maxHeight() - 2 * gutter) / TileMatrixSet.TILE_SIZE);
        return width < 1 || height < 1 ? Optional.empty()
                : Optional.of(new MetatileSize(width, height));
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

        /** The file's text, UTF-8; a failure names the file and says why. */
        public String read() throws IOException {
            if (path != null) {
                try {
                    return Files.readString(path, StandardCharsets.UTF_8);
                } catch (NoSuchFileException e) {
                    throw new IOException("cannot read data file " + location + ": no such file", e);
                } catch (AccessDeniedException e) {
                    throw new IOException("cannot read data file " + location + ": permission denied", e);
                } catch (IOException e) {
                    throw new IOException("cannot read data file " + location + ": " + e.getMessage(), e);
                }
            }
            try (InputStream in = DataFile.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("data file " + location + " is not bundled");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }
}
