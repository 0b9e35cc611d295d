package io.tileseeder.app.distributed;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import io.tileseeder.grid.WebMercator;
import java.util.Set;
import java.util.TreeSet;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * The reference for a job over a polygon: the WebMercatorQuad tiles whose area overlaps it, found tile by tile with
 * plain JTS (an intersection's area), as paths {@code world/WebMercatorQuad/z/x/y.png}.
 */
final class CoveredTiles {

    private static final GeometryFactory FACTORY = new GeometryFactory();
    private static final TileMatrixSet TMS = TileMatrixSet.WEB_MERCATOR_QUAD;

    private CoveredTiles() {
    }

    /** @param ring a closed ring of longitude, latitude pairs inside WebMercatorQuad's latitudes */
    static Set<String> webMercator(double[][] ring, int maxZoom) {
        Coordinate[] corners = new Coordinate[ring.length];
        for (int i = 0; i < ring.length; i++) {
            corners[i] = new Coordinate(WebMercator.x(ring[i][0]), WebMercator.y(ring[i][1]));
        }
        Geometry polygon = FACTORY.createPolygon(corners);
        Set<String> tiles = new TreeSet<>();
        for (int z = 0; z <= maxZoom; z++) {
            int side = TMS.matrixWidth(z);
            for (int y = 0; y < side; y++) {
                for (int x = 0; x < side; x++) {
                    Bounds b = TMS.rangeBounds(new TileRange(z, x, y, x, y));
                    Envelope cell = new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY());
                    if (cell.intersects(polygon.getEnvelopeInternal())
                            && polygon.intersection(FACTORY.toGeometry(cell)).getArea() > 1e-9 * cell.getArea()) {
                        tiles.add("world/" + TMS.id() + "/" + z + "/" + x + "/" + y + ".png");
                    }
                }
            }
        }
        return tiles;
    }

    /** How many metatiles of {@code side} tiles a side hold the tiles. */
    static long metatiles(Set<String> tiles, int side) {
        return tiles.stream().map(path -> {
            String[] parts = path.split("/");
            return parts[2] + "/" + Integer.parseInt(parts[3]) / side + "/"
                    + Integer.parseInt(parts[4].replace(".png", "")) / side;
        }).distinct().count();
    }
}
