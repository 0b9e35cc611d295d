package io.tileseeder.coordinator.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tileseeder.adapters.memory.InMemoryJobStore;
import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.Crs;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrix;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JobSpec;
import io.tileseeder.job.JobStatus;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.plan.MetatilePlan;
import io.tileseeder.port.Layout;
import io.tileseeder.port.TileCache;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The WMTS capabilities, the TMS TileMap and the manifest written beside a layer's tiles. */
class CacheDocumentsTest {

    private static final String WMTS = "http://www.opengis.net/wmts/1.0";
    private static final String OWS = "http://www.opengis.net/ows/1.1";
    private static final LayerInfo WORLD = new LayerInfo("world", "World & <countries>", "Natural Earth", 0, 14,
            Set.copyOf(TileMatrixSet.builtIn()), Set.of(TileFormat.values()), MetatileSize.DEFAULT,
            new MetatileSize(16, 16), Map.of(), "c0ffee");

    @Test
    void wmtsCapabilitiesNameTheLayerItsFormatItsTileUrlAndAMatrixPerZoom() throws Exception {
        Document doc = parse(WmtsCapabilities.document(WORLD, TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG8,
                "https://tiles.example.com/cache", Layout.XYZ));

        Element layer = (Element) doc.getElementsByTagNameNS(WMTS, "Layer").item(0);
        assertThat(text(layer, OWS, "Identifier")).isEqualTo("world");
        assertThat(text(layer, OWS, "Title")).isEqualTo("World & <countries>");
        assertThat(text(layer, WMTS, "Format")).isEqualTo("image/png");
        Element url = (Element) layer.getElementsByTagNameNS(WMTS, "ResourceURL").item(0);
        assertThat(url.getAttribute("resourceType")).isEqualTo("tile");
        assertThat(url.getAttribute("template"))
                .isEqualTo("https://tiles.example.com/cache/world/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.png");
        assertThat(WmtsCapabilities.fileName(TileFormat.PNG8)).isEqualTo("WMTSCapabilities-png8.xml");

        NodeList matrices = doc.getElementsByTagNameNS(WMTS, "TileMatrix");
        assertThat(matrices.getLength()).isEqualTo(15);
        Element z0 = (Element) matrices.item(0);
        assertThat(text(z0, OWS, "Identifier")).isEqualTo("0");
        // The standard's GoogleMapsCompatible scale set (OGC 07-057r7, annex E.4): 559082264.0287178 at level 0.
        assertThat(Double.parseDouble(text(z0, WMTS, "ScaleDenominator"))).isCloseTo(559082264.0287178,
                org.assertj.core.data.Offset.offset(1e-3));
        assertThat(text(z0, WMTS, "TopLeftCorner")).isEqualTo("-20037508.342789244 20037508.342789244");
        Element z14 = (Element) matrices.item(14);
        assertThat(text(z14, WMTS, "MatrixWidth")).isEqualTo("16384");
        assertThat(Double.parseDouble(text(z14, WMTS, "ScaleDenominator"))).isCloseTo(34123.67334161,
                org.assertj.core.data.Offset.offset(1e-6));
    }

    /**
     * A layer's dimensions: a {@code Dimension} each with the values held and its default, but STYLES, which is the
     * layer's {@code Style}s; the template names each where its folder is, in the order declared.
     */
    @Test
    void wmtsCapabilitiesListTheValuesHeldAndStylesAsStyles() throws Exception {
        LayerInfo layer = new LayerInfo("radar", "Radar", "", 0, 2, Set.of(TileMatrixSet.WEB_MERCATOR_QUAD),
                Set.of(TileFormat.PNG), MetatileSize.DEFAULT, new MetatileSize(16, 16), Map.of(), "c0ffee",
                List.of(Dimension.declare("STYLES", Dimension.Kind.TEXT, List.of("day", "night"), null, "night"),
                        Dimension.declare("TIME", Dimension.Kind.TIME, List.of(), null, null)));
        Document doc = parse(WmtsCapabilities.document(layer, TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG,
                "https://t.example.com", Layout.XYZ, Map.of("STYLES", List.of("day", "night"), "TIME",
                        List.of("2026-11-26T12:00:00Z", "2026-11-26T12:05:00Z"))));

        NodeList styles = doc.getElementsByTagNameNS(WMTS, "Style");
        assertThat(styles.getLength()).isEqualTo(2);
        assertThat(text((Element) styles.item(0), OWS, "Identifier")).isEqualTo("day");
        assertThat(((Element) styles.item(0)).getAttribute("isDefault")).isEqualTo("false");
        assertThat(text((Element) styles.item(1), OWS, "Identifier")).isEqualTo("night");
        assertThat(((Element) styles.item(1)).getAttribute("isDefault")).isEqualTo("true");
        NodeList dimensions = doc.getElementsByTagNameNS(WMTS, "Dimension");
        assertThat(dimensions.getLength()).isEqualTo(1);
        Element time = (Element) dimensions.item(0);
        assertThat(text(time, OWS, "Identifier")).isEqualTo("TIME");
        assertThat(text(time, WMTS, "Default")).isEqualTo("2026-11-26T12:00:00Z");
        assertThat(time.getElementsByTagNameNS(WMTS, "Value").getLength()).isEqualTo(2);
        assertThat(((Element) doc.getElementsByTagNameNS(WMTS, "ResourceURL").item(0)).getAttribute("template"))
                .isEqualTo("https://t.example.com/radar/WebMercatorQuad/{Style}/{TIME}/{TileMatrix}/{TileCol}/"
                        + "{TileRow}.png");
    }

    /** A layer whose zoom range goes past the set's last matrix lists the set's matrices, and no more. */
    @Test
    void wmtsCapabilitiesOfASetWithFewerMatricesThanTheLayersZoomRangeStopAtItsLastMatrix() throws Exception {
        TileMatrixSet three = TileMatrixSet.of("Lv95Three", Crs.of("EPSG:2056", false), List.of(
                new TileMatrix("0", 1000, 2420000, 1350000, 256, 256, 2, 2),
                new TileMatrix("1", 500, 2420000, 1350000, 256, 256, 4, 3),
                new TileMatrix("2", 250, 2420000, 1350000, 256, 256, 8, 5)));
        LayerInfo layer = new LayerInfo("swiss", "Swiss", "", 0, 14, Set.of(three), Set.of(TileFormat.PNG),
                MetatileSize.DEFAULT);
        assertThat(layer.maxZoom(three)).isEqualTo(2);

        Document doc = parse(WmtsCapabilities.document(layer, three, TileFormat.PNG, "https://tiles.example.com",
                Layout.XYZ));

        NodeList matrices = doc.getElementsByTagNameNS(WMTS, "TileMatrix");
        assertThat(matrices.getLength()).isEqualTo(3);
        assertThat(text((Element) matrices.item(2), WMTS, "MatrixHeight")).isEqualTo("5");
    }

    @Test
    void worldCrs84QuadHasTwoTilesAtZoomZeroAndLongitudeFirst() throws Exception {
        Document doc = parse(WmtsCapabilities.document(WORLD, TileMatrixSet.WORLD_CRS84_QUAD, TileFormat.JPEG_PNG,
                "file:///srv/tiles", Layout.XYZ));

        Element set = (Element) doc.getElementsByTagNameNS(WMTS, "Contents").item(0);
        assertThat(doc.getElementsByTagNameNS(OWS, "SupportedCRS").item(0).getTextContent())
                .isEqualTo("urn:ogc:def:crs:OGC:1.3:CRS84");
        Element z0 = (Element) set.getElementsByTagNameNS(WMTS, "TileMatrix").item(0);
        assertThat(text(z0, WMTS, "TopLeftCorner")).isEqualTo("-180 90");
        assertThat(text(z0, WMTS, "MatrixWidth")).isEqualTo("2");
        assertThat(text(z0, WMTS, "MatrixHeight")).isEqualTo("1");
        // 180° over 256 px, 111,319.49 m a degree, 0.28 mm a pixel
        assertThat(Double.parseDouble(text(z0, WMTS, "ScaleDenominator"))).isCloseTo(279541132.0143589,
                org.assertj.core.data.Offset.offset(1e-3));
        Element url = (Element) doc.getElementsByTagNameNS(WMTS, "ResourceURL").item(0);
        assertThat(url.getAttribute("template"))
                .isEqualTo("file:///srv/tiles/world/WorldCRS84Quad/{TileMatrix}/{TileCol}/{TileRow}.jpeg-png");
        assertThat(url.getAttribute("format")).isEqualTo("image/vnd.jpeg-png");
    }

    /** WMTS 1.0 (07-057r7) 10.2.1: a RESTful template names its variables; the wmts layout's order is row, column. */
    @Test
    void wmtsCapabilitiesOfTheWmtsLayoutNameTheStyleFolderAndRowsBeforeColumns() throws Exception {
        Document doc = parse(WmtsCapabilities.document(WORLD, TileMatrixSet.WEB_MERCATOR_QUAD, TileFormat.PNG,
                "https://tiles.example.com", Layout.WMTS));

        Element url = (Element) doc.getElementsByTagNameNS(WMTS, "ResourceURL").item(0);
        assertThat(url.getAttribute("template")).isEqualTo(
                "https://tiles.example.com/world/default/WebMercatorQuad/{TileMatrix}/{TileRow}/{TileCol}.png");
    }

    /**
     * OSGeo TMS 1.0.0, TileMap resource: the origin at the lower left of the bounding box, a TileSet per zoom level
     * from 0 with its units per pixel, in order; GDAL takes the tile URL from the first TileSet's href ending in /0.
     */
    @Test
    void theTmsTileMapGivesTheExtentOriginTileFormatAndATileSetPerZoom() throws Exception {
        Element map = parse(TmsTileMap.document(WORLD, new TileCache("world", TileMatrixSet.WORLD_CRS84_QUAD),
                TileFormat.JPEG, "https://tiles.example.com")).getDocumentElement();

        assertThat(map.getTagName()).isEqualTo("TileMap");
        assertThat(map.getAttribute("version")).isEqualTo("1.0.0");
        assertThat(map.getElementsByTagName("SRS").item(0).getTextContent()).isEqualTo("OGC:CRS84");
        Element box = (Element) map.getElementsByTagName("BoundingBox").item(0);
        assertThat(List.of(box.getAttribute("minx"), box.getAttribute("miny"), box.getAttribute("maxx"),
                box.getAttribute("maxy"))).containsExactly("-180", "-90", "180", "90");
        Element origin = (Element) map.getElementsByTagName("Origin").item(0);
        assertThat(List.of(origin.getAttribute("x"), origin.getAttribute("y"))).containsExactly("-180", "-90");
        Element format = (Element) map.getElementsByTagName("TileFormat").item(0);
        assertThat(List.of(format.getAttribute("width"), format.getAttribute("mime-type"),
                format.getAttribute("extension"))).containsExactly("256", "image/jpeg", "jpg");
        NodeList sets = map.getElementsByTagName("TileSet");
        assertThat(sets.getLength()).isEqualTo(15);
        Element first = (Element) sets.item(0);
        assertThat(first.getAttribute("href")).isEqualTo("https://tiles.example.com/world/WorldCRS84Quad/0");
        assertThat(first.getAttribute("order")).isEqualTo("0");
        assertThat(first.getAttribute("units-per-pixel")).isEqualTo("0.703125");
        assertThat(((Element) sets.item(14)).getAttribute("order")).isEqualTo("14");
        assertThat(TmsTileMap.fileName(TileFormat.JPEG)).isEqualTo("tilemapresource-jpeg.xml");
    }

    @Test
    void theManifestSaysWhatTheJobLeftPerZoomAndWhichConfigurationDrewIt() throws Exception {
        InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
        JobSpec spec = JobFixtures.VALIDATOR.validate(new JobRequest("world", null, new JobRequest.Zoom(1, 3),
                List.of(0d, 0d, 40d, 40d), null, "reseed", null, null, null, Map.of("team", "maps")));
        JobStatus job = store.create(JobStatus.submitted("job-m", spec, MetatilePlan.of(spec).tileCount(), Instant.now(), null));

        JsonNode doc = new ObjectMapper().readTree(Manifest.document(job, WORLD,
                Instant.parse("2026-11-26T00:00:00Z")));

        assertThat(doc.path("manifest").asInt()).isEqualTo(1);
        assertThat(doc.path("layer").asText()).isEqualTo("world");
        assertThat(doc.path("layerConfigHash").asText()).isEqualTo("c0ffee");
        assertThat(doc.path("format").asText()).isEqualTo("png");
        assertThat(doc.path("tiles").asText()).isEqualTo("{z}/{x}/{y}.png");
        assertThat(doc.path("layout").asText()).isEqualTo("xyz");
        assertThat(doc.path("written").asText()).isEqualTo("2026-11-26T00:00:00Z");
        assertThat(doc.path("job").path("id").asText()).isEqualTo("job-m");
        assertThat(doc.path("job").path("mode").asText()).isEqualTo("reseed");
        assertThat(doc.path("job").path("labels").path("team").asText()).isEqualTo("maps");
        assertThat(doc.path("counts").path("planned").asLong()).isEqualTo(MetatilePlan.of(spec).tileCount());
        long perZoom = 0;
        for (JsonNode zoom : doc.path("zooms")) {
            perZoom += zoom.path("tiles").asLong();
        }
        assertThat(doc.path("zooms")).hasSize(3);
        assertThat(doc.path("zooms").get(0).path("zoom").asInt()).isEqualTo(1);
        assertThat(perZoom).isEqualTo(MetatilePlan.of(spec).tileCount());
        assertThat(Manifest.fileName(TileFormat.WEBP)).isEqualTo("manifest-webp.json");
        assertThat(doc.path("crs").asText()).isEqualTo("EPSG:3857");
        assertThat(doc.path("documents").path("tileJson").asText()).isEqualTo("tilejson-png.json");
        assertThat(doc.path("documents").path("wmtsCapabilities").asText()).isEqualTo("WMTSCapabilities-png.xml");
    }

    @Test
    void theManifestNamesTheTilesAndDocumentsOfItsLayout() throws Exception {
        InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
        JobSpec spec = JobFixtures.VALIDATOR.validate(new JobRequest("world", null, new JobRequest.Zoom(0, 2),
                null, null, null, null, null, null, Map.of()));
        JobStatus job = store.create(JobStatus.submitted("job-l", spec, MetatilePlan.of(spec).tileCount(),
                Instant.now(), null));

        JsonNode tms = new ObjectMapper().readTree(Manifest.document(job, WORLD, DimensionValues.NONE, 1, Layout.TMS,
                Instant.now()));
        JsonNode quadkey = new ObjectMapper().readTree(Manifest.document(job, WORLD, DimensionValues.NONE, 1,
                Layout.QUADKEY, Instant.now()));

        assertThat(tms.path("layout").asText()).isEqualTo("tms");
        assertThat(tms.path("tiles").asText()).isEqualTo("{z}/{x}/{y}.png");
        assertThat(tms.path("documents").path("tmsTileMap").asText()).isEqualTo("tilemapresource-png.xml");
        assertThat(tms.path("documents").path("wmtsCapabilities").isNull()).isTrue();
        assertThat(quadkey.path("tiles").asText()).isEqualTo("{quadkey}.png");
        assertThat(quadkey.path("documents").has("tmsTileMap")).isFalse();
    }

    @Test
    void theManifestOfAnotherSetSaysWhyThereIsNoTileJson() throws Exception {
        InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
        JobSpec spec = new JobSpec("world", TileMatrixSet.WORLD_CRS84_QUAD, 0, 1, Bounds.WORLD_CRS84, TileFormat.PNG,
                Mode.SEED, MetatileSize.DEFAULT, null, 0, Map.of());
        JobStatus job = store.create(JobStatus.submitted("job-c", spec, MetatilePlan.of(spec).tileCount(), Instant.now(),
                null));

        JsonNode doc = new ObjectMapper().readTree(Manifest.document(job, WORLD, Instant.now()));

        assertThat(doc.path("crs").asText()).isEqualTo("OGC:CRS84");
        assertThat(doc.path("documents").path("tileJson").isNull()).isTrue();
        assertThat(doc.path("documents").path("noTileJson").asText()).contains("WebMercatorQuad tiles only")
                .contains("WMTSCapabilities-png.xml describes these WorldCRS84Quad tiles");
    }

    /** A bbox given in the set's CRS is in the manifest as given (EPSG:3035 is northing first), beside its CRS84. */
    @Test
    void theManifestOfAJobWithABboxInTheSetsCrsSaysItAsGiven() throws Exception {
        InMemoryJobStore store = new InMemoryJobStore(Clock.systemUTC(), 100);
        TileMatrixSet laea = TileMatrixSet.byId("EuropeanETRS89_LAEAQuad").orElseThrow();
        Bounds crsBbox = new Bounds(4000000, 2500000, 4500000, 3000000);
        JobSpec spec = new JobSpec("world", laea, 0, 1, laea.crs84Envelope(crsBbox), TileFormat.PNG, Mode.SEED,
                MetatileSize.DEFAULT, null, 0, Map.of(), null, crsBbox);
        JobStatus job = store.create(JobStatus.submitted("job-l", spec, MetatilePlan.of(spec).tileCount(),
                Instant.now(), null));

        JsonNode about = new ObjectMapper().readTree(Manifest.document(job, WORLD, Instant.now())).path("job");

        assertThat(about.path("bboxCrs").asText()).isEqualTo("EPSG:3035");
        assertThat(about.path("crsBbox").toString()).isEqualTo("[2500000.0,4000000.0,3000000.0,4500000.0]");
        assertThat(about.path("bbox").get(0).asDouble()).isBetween(5.0, 20.0);
    }

    private static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
    }

    private static String text(Element parent, String namespace, String name) {
        return parent.getElementsByTagNameNS(namespace, name).item(0).getTextContent();
    }
}
