package io.tileseeder.grid;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of well-known tile matrix sets of OGC 17-083r4 (annex D, and the OGC's tile matrix set register at
 * {@code http://www.opengis.net/def/tilematrixset/OGC/1.0/}), built from their published origins, extents and sizes:
 *
 * <ul>
 *   <li>WebMercatorQuad (EPSG:3857) and WorldCRS84Quad (CRS84), as {@link TileMatrixSet} defines them;</li>
 *   <li>WorldMercatorWGS84Quad: EPSG:3395, ±20,037,508.3427892 m square, 1 tile at zoom 0, 25 matrices;</li>
 *   <li>EuropeanETRS89_LAEAQuad: EPSG:3035 (northing first), easting 2,000,000 to 6,500,000 m and northing
 *       1,000,000 to 5,500,000 m, 1 tile at zoom 0, 16 matrices;</li>
 *   <li>UPSArcticWGS84Quad and UPSAntarcticWGS84Quad: EPSG:5041 and EPSG:5042, −14,440,759.350252 to
 *       18,440,759.350252 m both ways, 1 tile at zoom 0, 25 matrices;</li>
 *   <li>UTM01WGS84Quad to UTM60WGS84Quad: EPSG:32601 to 32660, easting −9,501,965.72931276 to 10,501,965.7293128 m,
 *       northing ±20,003,931.4586255 m, 1×2 tiles in the first matrix, 24 matrices identified 1 to 24.</li>
 *   <li>CanadianNAD83_LCC: EPSG:3978, 26 matrices whose resolutions are a scale series (not a quadtree), origin
 *       (−34,655,800, 39,310,000) m, read from {@code CanadianNAD83_LCC.json} beside this class: the register's
 *       origin, cell sizes and matrix sizes (the register's scale denominators assume 0.2645833 mm pixels, not
 *       the standard's 0.28 mm, so the file gives the cell sizes alone). Matrix 25 is past the deepest zoom a layer
 *       reaches, {@value TileMatrixSet#MAX_ZOOM}.</li>
 * </ul>
 * All but CanadianNAD83_LCC have 256 px tiles and double their matrix from one zoom to the next.
 */
final class WellKnownTileMatrixSets {

    private static final int TILE = TileMatrixSet.TILE_SIZE;

    private WellKnownTileMatrixSets() {
    }

    /** Built on first use: the sixty-odd sets cost little, and most processes only ever use the first two. */
    private static final class Registry {
        static final Map<String, TileMatrixSet> SETS = build();

        private static Map<String, TileMatrixSet> build() {
            Map<String, TileMatrixSet> sets = new LinkedHashMap<>();
            add(sets, TileMatrixSet.WEB_MERCATOR_QUAD);
            add(sets, TileMatrixSet.WORLD_CRS84_QUAD);
            double mercator = 20037508.3427892;
            add(sets, TileMatrixSet.quad("WorldMercatorWGS84Quad", Crs.known(3395, false),
                    new Bounds(-mercator, -mercator, mercator, mercator), 1, 1, TILE, 25));
            add(sets, TileMatrixSet.quad("EuropeanETRS89_LAEAQuad", Crs.known(3035, true),
                    new Bounds(2_000_000, 1_000_000, 6_500_000, 5_500_000), 1, 1, TILE, 16));
            double upsMin = -14440759.350252;
            double upsMax = 18440759.350252;
            Bounds ups = new Bounds(upsMin, upsMin, upsMax, upsMax);
            add(sets, TileMatrixSet.quad("UPSArcticWGS84Quad", Crs.known(5041, false), ups, 1, 1, TILE, 25));
            add(sets, TileMatrixSet.quad("UPSAntarcticWGS84Quad", Crs.known(5042, false), ups, 1, 1, TILE, 25));
            Bounds utm = new Bounds(-9501965.72931276, -20003931.4586255, 10501965.7293128, 20003931.4586255);
            for (int zone = 1; zone <= 60; zone++) {
                String id = String.format(Locale.ROOT, "UTM%02dWGS84Quad", zone);
                TileMatrixSet quad = TileMatrixSet.quad(id, Crs.known(32600 + zone, false), utm, 1, 2, TILE, 24);
                List<TileMatrix> fromOne = new ArrayList<>();
                for (TileMatrix m : quad.matrices()) {
                    fromOne.add(new TileMatrix(Integer.toString(Integer.parseInt(m.id()) + 1), m.cellSize(), m.left(),
                            m.top(), m.tileWidth(), m.tileHeight(), m.matrixWidth(), m.matrixHeight()));
                }
                add(sets, TileMatrixSet.of(id, quad.referenceSystem(), fromOne));
            }
            add(sets, resource("CanadianNAD83_LCC.json"));
            return sets;
        }

        private static TileMatrixSet resource(String name) {
            try (InputStream in = WellKnownTileMatrixSets.class.getResourceAsStream(name)) {
                if (in == null) {
                    throw new IllegalStateException("the build lacks " + name);
                }
                return TileMatrixSetJson.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
            } catch (IOException e) {
                throw new UncheckedIOException(name, e);
            }
        }

        private static void add(Map<String, TileMatrixSet> sets, TileMatrixSet set) {
            sets.put(set.id(), set);
        }
    }

    static Optional<TileMatrixSet> byId(String id) {
        if (TileMatrixSet.WEB_MERCATOR_QUAD.id().equals(id)) {
            return Optional.of(TileMatrixSet.WEB_MERCATOR_QUAD);
        }
        return Optional.ofNullable(Registry.SETS.get(id));
    }

    static List<TileMatrixSet> all() {
        return List.copyOf(Registry.SETS.values());
    }
}
