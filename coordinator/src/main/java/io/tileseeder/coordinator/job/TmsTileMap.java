package io.tileseeder.coordinator.job;

import static io.tileseeder.coordinator.job.WmtsCapabilities.escape;
import static io.tileseeder.coordinator.job.WmtsCapabilities.number;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import java.nio.charset.StandardCharsets;

/**
 * The OSGeo Tile Map Service 1.0.0 {@code TileMap} resource of a cache in the {@link Layout#TMS} layout, stored beside
 * its tiles as {@code tilemapresource-{format}.xml} (gdal2tiles writes the same document as
 * {@code tilemapresource.xml}): the set's CRS, its extent as the bounding box with the origin at its lower left
 * corner, the tile size and format, and a {@code TileSet} per zoom level from 0 to the layer's deepest, each
 * {@code {base}/{cache folder}/{z}} with its units per pixel. GDAL's WMS driver opens it as a TMS service.
 *
 * <p>TMS counts rows from one origin for every zoom level, so only sets whose zoom levels all share their extent
 * have one (the tms layout refuses others: {@link Layout#refuses}).
 */
final class TmsTileMap {

    private TmsTileMap() {
    }

    static String fileName(TileFormat format) {
        return "tilemapresource-" + format.id() + ".xml";
    }

    /** @param base the store's public URL ({@link io.tileseeder.port.TileStore#publicUrl}) */
    static byte[] document(LayerInfo layer, TileCache cache, TileFormat format, String base) {
        TileMatrixSet set = cache.tileMatrixSet();
        TileMatrix top = set.matrix(0);
        Bounds extent = top.bounds();
        String profile = set == TileMatrixSet.WEB_MERCATOR_QUAD ? "global-mercator"
                : set == TileMatrixSet.WORLD_CRS84_QUAD ? "global-geodetic" : "none";
        StringBuilder xml = new StringBuilder(1024 + 160 * (layer.maxZoom(set) + 1));
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<TileMap version=\"1.0.0\" tilemapservice=\"http://tms.osgeo.org/1.0.0\">\n");
        xml.append("  <Title>").append(escape(layer.title())).append("</Title>\n");
        xml.append("  <Abstract>").append(escape(layer.attribution())).append("</Abstract>\n");
        xml.append("  <SRS>").append(escape(set.crs())).append("</SRS>\n");
        xml.append("  <BoundingBox minx=\"").append(number(extent.minX())).append("\" miny=\"")
                .append(number(extent.minY())).append("\" maxx=\"").append(number(extent.maxX()))
                .append("\" maxy=\"").append(number(extent.maxY())).append("\"/>\n");
        xml.append("  <Origin x=\"").append(number(extent.minX())).append("\" y=\"").append(number(extent.minY()))
                .append("\"/>\n");
        xml.append("  <TileFormat width=\"").append(top.tileWidth()).append("\" height=\"").append(top.tileHeight())
                .append("\" mime-type=\"").append(format.contentType()).append("\" extension=\"")
                .append(format.extension()).append("\"/>\n");
        xml.append("  <TileSets profile=\"").append(profile).append("\">\n");
        String folder = base + "/" + Layout.TMS.folder(cache);
        for (int z = 0; z <= layer.maxZoom(set); z++) {
            xml.append("    <TileSet href=\"").append(escape(folder + "/" + z)).append("\" units-per-pixel=\"")
                    .append(number(set.resolution(z))).append("\" order=\"").append(z).append("\"/>\n");
        }
        xml.append("  </TileSets>\n</TileMap>\n");
        return xml.toString().getBytes(StandardCharsets.UTF_8);
    }
}
