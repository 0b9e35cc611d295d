package io.tileseeder.server.api;

import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileCache;
import io.tileseeder.port.TileKey;
import io.tileseeder.port.TileStore;
import io.tileseeder.server.access.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Provider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Serves seeded tiles from the store, for the preview map. A CDN or object store serves them in production.
 *
 * <p>Only tiles: the layer, tile matrix set and format must be the catalogue's, and z, x and y whole numbers
 * inside the tile matrix set at that zoom, and a layer's dimension values (query parameters named as its dimensions,
 * their defaults otherwise) checked as a job's are, so that the key handed to the store is always one a job could
 * have written; nothing of the request's path or query reaches the store as it is.
 */
@Path("/tiles")
@RolesAllowed(Roles.READ)
public class TilesResource {

    private final Provider<LayerCatalog> layers;
    private final Provider<TileStore> store;

    public TilesResource(Provider<LayerCatalog> layers, Provider<TileStore> store) {
        this.layers = layers;
        this.store = store;
    }

    @GET
    @Path("{layer}/{tms}/{z}/{x}/{tile}")
    @Operation(summary = "A seeded tile", description = "{tile} is {y}.{ext} (png or jpg). On a layer with "
            + "dimensions, a query parameter per dimension names its cache (TIME=..., STYLES=...; the default when "
            + "left out). 404 problem+json for an unknown layer, tile matrix set or format, a tile outside the layer, "
            + "or one that was not seeded (or was empty and skipped); 400 when z, x or y is not a whole number, or a "
            + "dimension value is not one the layer allows.")
    public Response tile(@PathParam("layer") String layer, @PathParam("tms") String tms, @PathParam("z") String z,
                         @PathParam("x") String x, @PathParam("tile") String tile, @Context UriInfo uri)
            throws IOException {
        LayerInfo info = layers.get().find(layer)
                .orElseThrow(() -> notFound("layer", "no layer '" + layer + "'; layers: " + layers.get()
                        .all().stream().map(LayerInfo::name).sorted().collect(Collectors.joining(", "))));
        TileMatrixSet matrixSet = TileMatrixSet.byId(tms).filter(info.tileMatrixSets()::contains)
                .orElseThrow(() -> notFound("tileMatrixSet", "layer '" + layer + "' has no tile matrix set '" + tms
                        + "'; it has " + info.tileMatrixSets().stream().map(TileMatrixSet::id).sorted().toList()));
        int dot = tile.lastIndexOf('.');
        String y = dot < 0 ? tile : tile.substring(0, dot);
        String ext = dot < 0 ? "" : tile.substring(dot + 1);
        TileFormat format = info.formats().stream().filter(f -> f.extension().equals(ext)).findFirst()
                .orElseThrow(() -> notFound("ext", "layer '" + layer + "' has no tiles with extension '" + ext
                        + "'; it has " + info.formats().stream().map(TileFormat::extension).distinct().sorted().toList()));
        long zoom = whole("z", z);
        long column = whole("x", x);
        long row = whole("y", y);
        if (zoom < info.minZoom() || zoom > info.maxZoom(matrixSet)) {
            throw notFound("z", "zoom " + z + " is outside the zoom range " + info.minZoom() + ".."
                    + info.maxZoom(matrixSet) + " of layer '" + layer + "' on " + tms);
        }
        int level = (int) zoom;
        if (column >= matrixSet.matrixWidth(level)) {
            throw notFound("x", "column " + x + " is outside 0.." + (matrixSet.matrixWidth(level) - 1) + " of "
                    + tms + " at zoom " + level);
        }
        if (row >= matrixSet.matrixHeight(level)) {
            throw notFound("y", "row " + y + " is outside 0.." + (matrixSet.matrixHeight(level) - 1) + " of " + tms
                    + " at zoom " + level);
        }
        TileKey key = new TileKey(new TileCache(info.name(), matrixSet, dimensions(info, uri.getQueryParameters())),
                TileCoord.of(level, (int) column, (int) row), format);
        return store.get().read(key)
                .map(bytes -> Response.ok(bytes, format.contentTypeOf(bytes)).header("Cache-Control", "no-cache").build())
                .orElseThrow(() -> new NotFoundException(Problem.response(Response.Status.NOT_FOUND,
                        "tile " + key.path() + " is not in the store: not seeded, or empty and skipped")));
    }

    /** One value of each of the layer's dimensions: the query's (any case), checked, or the default. */
    private static DimensionValues dimensions(LayerInfo layer, MultivaluedMap<String, String> query) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Dimension dimension : layer.dimensions()) {
            String field = dimension.name();
            String given = query.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(field))
                    .flatMap(e -> e.getValue().stream()).findFirst().orElse(null);
            try {
                if (given != null) {
                    values.put(field, dimension.check(given));
                } else if (dimension.defaultValue() != null) {
                    values.put(field, dimension.defaultValue());
                } else {
                    throw new IllegalArgumentException("is required: layer '" + layer.name() + "' has no default "
                            + field);
                }
            } catch (IllegalArgumentException e) {
                throw new InvalidJobException(List.of(new FieldError(field, e.getMessage())));
            }
        }
        return new DimensionValues(values);
    }

    /** A whole number from 0 up (a very long one counts as too large); anything else is refused naming the field. */
    private static long whole(String field, String text) {
        if (!text.matches("\\d+")) {
            throw new InvalidJobException(List.of(new FieldError(field, "must be a whole number from 0 up, got '"
                    + text + "'")));
        }
        return text.length() > 18 ? Long.MAX_VALUE : Long.parseLong(text);
    }

    private static NotFoundException notFound(String field, String reason) {
        return new NotFoundException(Problem.response(Response.Status.NOT_FOUND, reason,
                List.of(new FieldError(field, reason))));
    }
}
