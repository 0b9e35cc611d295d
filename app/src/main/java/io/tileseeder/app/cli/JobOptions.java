package io.tileseeder.app.cli;

import com.fasterxml.jackson.databind.node.TextNode;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.Mode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The options that describe a job, shared by the commands that start one ({@code seed}, {@code submit}). */
final class JobOptions {

    @Option(names = "--layer", required = true, description = "The layer to seed (see the layer configuration).")
    String layer;

    @Option(names = "--zoom", paramLabel = "MIN-MAX", description = "Zoom levels, e.g. 0-5, or 7 for one level "
            + "(required but with --mode pack).")
    String zoom;

    @Option(names = "--bbox", paramLabel = "W,S,E,N", description = "Area in longitude/latitude degrees, or in "
            + "--bbox-crs (default: the world).")
    String bbox;

    @Option(names = "--bbox-crs", paramLabel = "CRS", description = "The CRS of --bbox: CRS84 (the default) or the "
            + "tile matrix set's own, e.g. EPSG:2056, its numbers in that CRS's axis order.")
    String bboxCrs;

    @Option(names = "--tile-matrix-set", paramLabel = "ID", defaultValue = "WebMercatorQuad",
            description = "A tile matrix set the layer offers: WebMercatorQuad, WorldCRS84Quad, another well-known "
                    + "set (EuropeanETRS89_LAEAQuad, UTM32WGS84Quad, ...) or one of its layers file's "
                    + "(default: ${DEFAULT-VALUE}).")
    String tileMatrixSet;

    @Option(names = "--format", defaultValue = "png",
            description = "png, png8, jpeg, jpeg-png, webp or webp-lossless, among the layer's (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--mode", defaultValue = "seed",
            description = "seed (only missing tiles), reseed (all tiles), truncate (delete), or with submit pack (the "
                    + "finished cache into --archive); default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--metatile", paramLabel = "WxH", description = "Tiles per metatile, e.g. 4x4 (default: the layer's).")
    String metatile;

    @Option(names = "--refresh-before", paramLabel = "INSTANT",
            description = "With reseed: rewrite only tiles older than this ISO-8601 instant.")
    Instant refreshBefore;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label carried by the job; repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(names = "--coverage", paramLabel = "FILE|NAME", description = {"Only the tiles that overlap this area "
            + "(within --bbox, if given): a GeoJSON file of Polygons or MultiPolygons in longitude/latitude, or the "
            + "name of one of the layer's coverages."})
    String coverage;

    @Option(names = "--tiles", paramLabel = "FILE", description = {"Only the tiles of this list (z/x/y lines, as "
            + "osm2pgsql's expire output writes them; - for standard input), with their parents above and children "
            + "below, within --zoom."})
    String tiles;

    @Option(names = "--dimension", paramLabel = "NAME=VALUE", description = {"A value of one of the layer's "
            + "dimensions to seed, e.g. TIME=2026-11-26T12:05Z, STYLES=night, or an interval of a time or number "
            + "dimension, TIME=2026-11-26T12:00Z/2026-11-26T13:00Z/PT5M; repeatable, once per value. Every "
            + "combination of the values is a cache of its own; a dimension not named gets its default."})
    List<String> dimensions = new ArrayList<>();

    /**
     * The job these options describe.
     *
     * @param spec     the command's spec, for usage errors that name the command
     * @param priority the job's priority among queued jobs
     * @param archive  the archive of a pack job, or null
     */
    JobRequest request(CommandSpec spec, int priority, String archive) {
        boolean pack = Mode.PACK.id().equals(mode);
        if (zoom == null && !pack) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--zoom=MIN-MAX'");
        }
        return new JobRequest(layer, tileMatrixSet, zoom == null ? null : CliArgs.zoom(spec, "--zoom", zoom),
                bbox == null ? null : CliArgs.bbox(spec, "--bbox", bbox), format, mode,
                metatile == null ? null : CliArgs.metatile(spec, "--metatile", metatile), refreshBefore, priority,
                labels, coverage == null ? null : CliArgs.coverage(spec, "--coverage", coverage),
                tiles == null ? null : TextNode.valueOf(CliArgs.text(spec, "--tiles", tiles)), bboxCrs,
                CliArgs.dimensions(spec, "--dimension", dimensions), archive);
    }
}
