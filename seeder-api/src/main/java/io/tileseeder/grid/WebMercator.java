package io.tileseeder.grid;

/**
 * Spherical ("pseudo") Mercator, EPSG:3857, as the closed-form formulas of EPSG guidance note 7-2 §1.3.3.2:
 * {@code x = R·λ}, {@code y = R·ln(tan(π/4 + φ/2))} with R = 6 378 137 m. Latitudes are clamped to the square
 * world of WebMercatorQuad (±85.0511°) so that the poles project to its edge rather than to infinity.
 */
public final class WebMercator {

    public static final double EARTH_RADIUS = 6_378_137.0;
    /** Half the width of the projected world: π·R. */
    public static final double HALF_WORLD = Math.PI * EARTH_RADIUS;
    /** The latitude at which y reaches {@link #HALF_WORLD}. */
    public static final double MAX_LATITUDE = Math.toDegrees(Math.atan(Math.sinh(Math.PI)));

    private WebMercator() {
    }

    public static double x(double lon) {
        return Math.toRadians(lon) * EARTH_RADIUS;
    }

    public static double y(double lat) {
        double clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
        return Math.log(Math.tan(Math.PI / 4 + Math.toRadians(clamped) / 2)) * EARTH_RADIUS;
    }

    public static double[] project(double lon, double lat) {
        return new double[] {x(lon), y(lat)};
    }

    public static double lon(double x) {
        return Math.toDegrees(x / EARTH_RADIUS);
    }

    public static double lat(double y) {
        return Math.toDegrees(Math.atan(Math.sinh(y / EARTH_RADIUS)));
    }
}
