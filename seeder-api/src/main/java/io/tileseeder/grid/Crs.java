package io.tileseeder.grid;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateReferenceSystem;
import org.locationtech.proj4j.CoordinateTransform;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.Proj4jException;
import org.locationtech.proj4j.ProjCoordinate;

/**
 * The coordinate reference system of a tile matrix set: {@code OGC:CRS84} or an EPSG code, with the transformations
 * between it and CRS84 longitude/latitude done by proj4j and its copy of the EPSG registry.
 *
 * <p>proj4j always works in easting, northing (longitude, latitude) order and does not know a CRS's axis order, so
 * the order comes from the tile matrix set that names the CRS (its {@code orderedAxes}): WMS 1.3.0 BBOXes and WMTS
 * {@code TopLeftCorner}s are written in it.
 */
public final class Crs {

    /** CRS84: WGS 84 longitude, latitude. */
    public static final Crs CRS84 = new Crs("OGC:CRS84", 0, false);

    private static final Pattern EPSG = Pattern.compile(
            "(?:EPSG:|urn:ogc:def:crs:EPSG:[0-9.]*:|https?://www\\.opengis\\.net/def/crs/EPSG/[0-9.]+/)([0-9]{1,6})");
    private static final Pattern CRS84_NAME = Pattern.compile(
            "OGC:CRS84|CRS84|urn:ogc:def:crs:OGC:(?:1\\.3)?:CRS84|https?://www\\.opengis\\.net/def/crs/OGC/1\\.3/CRS84");
    private static final double METRES_PER_DEGREE = 2 * Math.PI * 6_378_137 / 360;
    private static final CRSFactory FACTORY = new CRSFactory();

    private final String code;
    private final int epsg;
    private final boolean northingFirst;
    /** proj4j's definition, read from its EPSG file on first use (the registry's sets are many, and most unused). */
    private volatile Definition definition;

    /** proj4j's CRS, its units, and its transforms (which keep state between calls: one per thread). */
    private record Definition(double metresPerUnit, String proj4, ThreadLocal<CoordinateTransform> fromCrs84,
                              ThreadLocal<CoordinateTransform> toCrs84) {

        static Definition of(String code) {
            CoordinateReferenceSystem wgs84 = create("EPSG:4326");
            CoordinateReferenceSystem own = code.equals("OGC:CRS84") ? wgs84 : create(code);
            double metresPerUnit = Boolean.TRUE.equals(own.isGeographic()) ? METRES_PER_DEGREE
                    : 1 / own.getProjection().getFromMetres();
            CoordinateTransformFactory transforms = new CoordinateTransformFactory();
            return new Definition(metresPerUnit, own.getParameterString().trim(),
                    ThreadLocal.withInitial(() -> transforms.createTransform(wgs84, own)),
                    ThreadLocal.withInitial(() -> transforms.createTransform(own, wgs84)));
        }
    }

    private Crs(String code, int epsg, boolean northingFirst) {
        this.code = code;
        this.epsg = epsg;
        this.northingFirst = northingFirst;
    }

    private Definition definition() {
        Definition known = definition;
        if (known == null) {
            known = Definition.of(code);
            definition = known;
        }
        return known;
    }

    /**
     * The CRS a name designates: {@code EPSG:2056}, {@code urn:ogc:def:crs:EPSG::2056},
     * {@code http://www.opengis.net/def/crs/EPSG/0/2056}, or one of the names of CRS84.
     *
     * @param northingFirst whether the CRS's first axis is the northing (or latitude), as its definition says
     * @throws IllegalArgumentException if the name is not one of these forms, or the EPSG code is not one proj4j knows
     */
    public static Crs of(String name, boolean northingFirst) {
        Objects.requireNonNull(name, "name");
        if (CRS84_NAME.matcher(name).matches()) {
            return CRS84;
        }
        Matcher epsg = EPSG.matcher(name);
        if (!epsg.matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a CRS name this product reads: EPSG:n, "
                    + "urn:ogc:def:crs:EPSG::n, http://www.opengis.net/def/crs/EPSG/0/n or OGC:CRS84");
        }
        Crs crs = known(Integer.parseInt(epsg.group(1)), northingFirst);
        crs.definition();
        return crs;
    }

    /** An EPSG CRS known to be in proj4j's registry, read on first use. */
    static Crs known(int epsg, boolean northingFirst) {
        return new Crs("EPSG:" + epsg, epsg, northingFirst);
    }

    private static CoordinateReferenceSystem create(String code) {
        try {
            return FACTORY.createFromName(code);
        } catch (Proj4jException | IllegalStateException e) {
            throw new IllegalArgumentException(code + " is not a CRS of the EPSG registry this product has ("
                    + Optional.ofNullable(e.getMessage()).orElse(e.getClass().getSimpleName()) + ")", e);
        }
    }

    /** {@code OGC:CRS84} or {@code EPSG:n}. */
    public String code() {
        return code;
    }

    /** The EPSG code, or 0 for CRS84. */
    public int epsg() {
        return epsg;
    }

    /** The CRS's OGC URN, as WMTS capabilities name it. */
    public String urn() {
        return epsg == 0 ? "urn:ogc:def:crs:OGC:1.3:CRS84" : "urn:ogc:def:crs:EPSG::" + epsg;
    }

    /** The CRS's OGC URI, as the OGC tile matrix set JSON names it. */
    public String uri() {
        return epsg == 0 ? "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
                : "http://www.opengis.net/def/crs/EPSG/0/" + epsg;
    }

    /** Whether the first axis of the CRS is the northing or latitude (EPSG:4326, EPSG:3035, …). */
    public boolean northingFirst() {
        return northingFirst;
    }

    /** Metres per CRS unit; a degree is 2π × 6,378,137 / 360 m, as the OGC tile matrix set standard counts it. */
    public double metresPerUnit() {
        return definition().metresPerUnit();
    }

    /** The CRS's definition as PROJ parameters ({@code +proj=somerc +lat_0=46.95…}), as proj4js takes it. */
    public String proj4() {
        return definition().proj4();
    }

    /**
     * CRS84 longitude/latitude to easting/northing in this CRS; {@code {NaN, NaN}} for a point the projection cannot
     * take (the far side of a polar stereographic projection, for one).
     */
    public double[] fromCrs84(double lon, double lat) {
        return transform(definition().fromCrs84().get(), lon, lat);
    }

    /** Easting/northing in this CRS to CRS84 longitude/latitude; {@code {NaN, NaN}} where it has none. */
    public double[] toCrs84(double x, double y) {
        return transform(definition().toCrs84().get(), x, y);
    }

    private static double[] transform(CoordinateTransform transform, double x, double y) {
        ProjCoordinate out = new ProjCoordinate();
        try {
            transform.transform(new ProjCoordinate(x, y), out);
        } catch (Proj4jException e) {
            return new double[] {Double.NaN, Double.NaN};
        }
        if (!Double.isFinite(out.x) || !Double.isFinite(out.y)) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {out.x, out.y};
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Crs crs && crs.code.equals(code) && crs.northingFirst == northingFirst;
    }

    @Override
    public int hashCode() {
        return code.hashCode() * 31 + Boolean.hashCode(northingFirst);
    }

    @Override
    public String toString() {
        return code;
    }
}
