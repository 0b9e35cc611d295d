package io.tileseeder.job;

import java.util.Objects;

/**
 * Where a job's tiles are when it names more than a bbox, in the form it is stored in: a validated, normalised
 * text that turns back into an area for any tile matrix set (the planning module's {@code Area.of}).
 *
 * @param kind what {@code data} holds
 * @param name the name of the layer's coverage the job named, if it named one
 * @param data {@link Kind#COVERAGE}: a GeoJSON Polygon or MultiPolygon in CRS84, already clipped to the job's bbox;
 *             {@link Kind#TILES}: one {@code z/x/y} per line, sorted, each once
 */
public record JobArea(Kind kind, String name, String data) {

    public enum Kind { COVERAGE, TILES }

    public JobArea {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(data, "data");
    }
}
