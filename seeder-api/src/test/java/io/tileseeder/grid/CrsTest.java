package io.tileseeder.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CRS names as OGC documents write them, and transformations checked against the CRSs' published origins. */
class CrsTest {

    @ParameterizedTest
    @ValueSource(strings = {"EPSG:2056", "urn:ogc:def:crs:EPSG::2056", "urn:ogc:def:crs:EPSG:9.8.15:2056",
            "http://www.opengis.net/def/crs/EPSG/0/2056", "https://www.opengis.net/def/crs/EPSG/0/2056"})
    void anEpsgCodeIsReadInEachOgcForm(String name) {
        Crs crs = Crs.of(name, false);

        assertThat(crs.code()).isEqualTo("EPSG:2056");
        assertThat(crs.urn()).isEqualTo("urn:ogc:def:crs:EPSG::2056");
        assertThat(crs.uri()).isEqualTo("http://www.opengis.net/def/crs/EPSG/0/2056");
    }

    @ParameterizedTest
    @ValueSource(strings = {"OGC:CRS84", "CRS84", "urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84",
            "http://www.opengis.net/def/crs/OGC/1.3/CRS84"})
    void crs84HasItsNames(String name) {
        assertThat(Crs.of(name, false)).isSameAs(Crs.CRS84);
        assertThat(Crs.CRS84.metresPerUnit()).isCloseTo(2 * Math.PI * 6_378_137 / 360, within(1e-9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"EPSG:999999", "EPSG:1"})
    void anUnknownEpsgCodeIsRefusedNamingIt(String name) {
        assertThatThrownBy(() -> Crs.of(name, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name).hasMessageContaining("EPSG registry");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2056", "EPSG:", "EPSG:abc", "PROJCS[\"x\"]", "urn:ogc:def:crs:FOO::1"})
    void aNameOfNoKnownFormIsRefusedNamingIt(String name) {
        assertThatThrownBy(() -> Crs.of(name, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + name + "'").hasMessageContaining("EPSG:n");
    }

    @ParameterizedTest
    @CsvSource({
            // swisstopo's worked example for its approximate WGS 84 to LV95 formulas (accurate to 1 m):
            // 8°43'49.79" E, 46°02'38.87" N is E 2,699,999.76 m, N 1,099,999.97 m
            "2056, 8.730497222, 46.044130556, 2699999.76, 1099999.97, 1",
            // ETRS89-LAEA's centre: 10° E, 52° N at false easting 4,321,000 m and false northing 3,210,000 m
            "3035, 10, 52, 4321000, 3210000, 0.001",
            // UTM zone 31N: its central meridian 3° E on the equator is at false easting 500,000 m
            "32631, 3, 0, 500000, 0, 0.001",
            // UPS North: the pole at false easting and northing 2,000,000 m
            "5041, 0, 90, 2000000, 2000000, 0.001",
    })
    void publishedOriginsAreWhereTheDefinitionPutsThem(int epsg, double lon, double lat, double x, double y,
                                                       double metres) {
        Crs crs = Crs.of("EPSG:" + epsg, false);

        double[] xy = crs.fromCrs84(lon, lat);
        double[] back = crs.toCrs84(xy[0], xy[1]);

        assertThat(xy[0]).isCloseTo(x, within(metres));
        assertThat(xy[1]).isCloseTo(y, within(metres));
        assertThat(back[0]).isCloseTo(lon, within(1e-7));
        assertThat(back[1]).isCloseTo(lat, within(1e-7));
        assertThat(crs.metresPerUnit()).isEqualTo(1);
    }

    @Test
    void aPointTheProjectionCannotTakeIsNaN() {
        // A point 90° from a transverse Mercator's central meridian, on the equator, is at infinity.
        double[] xy = Crs.of("EPSG:32631", false).fromCrs84(93, 0);

        assertThat(xy[0]).isNaN();
        assertThat(xy[1]).isNaN();
    }

    @Test
    void theAxisOrderIsTheOneGiven() {
        assertThat(Crs.of("EPSG:3035", true).northingFirst()).isTrue();
        assertThat(Crs.of("EPSG:3035", true)).isNotEqualTo(Crs.of("EPSG:3035", false));
        assertThat(Crs.of("EPSG:2056", false).northingFirst()).isFalse();
    }
}
