package io.tileseeder.render;

import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerCatalogFile;
import io.tileseeder.render.wms.WmsClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Shared fixtures of the render tests and of the worker's, which use them too: the bundled catalogue and its
 * resources (loaded once), catalogue files written for a test, and colour arithmetic.
 */
public final class RenderFixtures {

    private static volatile LayerCatalogConfig bundled;
    private static volatile LayerResources bundledResources;

    private RenderFixtures() {
    }

    /** The bundled style: land fill and border colours. */
    public static final int LAND_RGB = 0xf2efe9;
    public static final int BORDER_RGB = 0x9a8c98;

    /** The bundled catalogue, read once. */
    public static LayerCatalogConfig bundledCatalog() {
        if (bundled == null) {
            synchronized (RenderFixtures.class) {
                if (bundled == null) {
                    bundled = LayerCatalogFile.bundled();
                }
            }
        }
        return bundled;
    }

    /** Resources of the bundled catalogue, shared by the tests so the countries are parsed once. */
    public static LayerResources bundledResources() {
        if (bundledResources == null) {
            synchronized (RenderFixtures.class) {
                if (bundledResources == null) {
                    bundledResources = resources(bundledCatalog());
                }
            }
        }
        return bundledResources;
    }

    /** Resources of {@code catalog}, with at most 4 requests in flight to one upstream WMS. */
    public static LayerResources resources(LayerCatalogConfig catalog) {
        return new LayerResources(catalog, new WmsClient(4));
    }

    /** Writes a catalogue file into {@code dir} and returns it. */
    public static Path writeCatalog(Path dir, String yaml) throws IOException {
        Path file = dir.resolve("layers.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }

    /** A one-layer catalogue drawing {@code data} (relative to the file) with the bundled colours. */
    public static String layerYaml(String name, String data, String emptyTiles) {
        return """
                  - name: %s
                    zoom: {min: 0, max: 8}
                    metatile: {width: 4, height: 4}
                    gutter: 8
                    emptyTiles: %s
                    source:
                      type: vector
                      data: [%s]
                    style:
                      - fill: "#f2efe9"
                        stroke: "#9a8c98"
                        strokeWidth: 0.5
                """.formatted(name, emptyTiles, data);
    }

    public static String catalogYaml(String... layers) {
        return "layers:\n" + String.join("", layers);
    }

    /** A GeoJSON FeatureCollection with one rectangle, in CRS84 degrees. */
    public static String rectangleGeoJson(double minLon, double minLat, double maxLon, double maxLat) {
        return """
                {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "box"},
                 "geometry": {"type": "Polygon", "coordinates": [[[%1$s, %2$s], [%3$s, %2$s], [%3$s, %4$s],
                 [%1$s, %4$s], [%1$s, %2$s]]]}}]}
                """.formatted(minLon, minLat, maxLon, maxLat);
    }

    public static int alpha(int argb) {
        return argb >>> 24;
    }

    /** Whether the two colours' red, green and blue differ by at most {@code tolerance} each. */
    public static boolean rgbClose(int argb, int rgb, int tolerance) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs((argb >> shift & 0xff) - (rgb >> shift & 0xff)) > tolerance) {
                return false;
            }
        }
        return true;
    }

    public static String hex(int argb) {
        return String.format("#%08x", argb);
    }
}
