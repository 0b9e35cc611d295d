package io.tileseeder.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileMatrixSetJson;
import io.tileseeder.job.FieldError;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.server.access.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Provider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** The layers this deployment can seed. */
@Path("/api/v1/layers")
@RolesAllowed(Roles.READ)
@Produces(MediaType.APPLICATION_JSON)
public class LayersResource {

    private final Provider<LayerCatalog> layers;

    public LayersResource(Provider<LayerCatalog> layers) {
        this.layers = layers;
    }

    @GET
    @Operation(summary = "List the configured layers")
    public List<LayerView> list() {
        return layers.get().all().stream().map(LayerView::of).toList();
    }

    @GET
    @Path("{layer}/coverages/{coverage}")
    @Produces("application/geo+json")
    @Operation(summary = "One of a layer's coverages, as GeoJSON (CRS84)", description = "A job names it in its "
            + "coverage field. 404 problem+json for an unknown layer or coverage.")
    public String coverage(@PathParam("layer") String layer, @PathParam("coverage") String coverage) {
        LayerInfo info = layers.get().find(layer).orElseThrow(() -> notFound("layer", "no layer '"
                + layer + "'"));
        String geojson = info.coverages().get(coverage);
        if (geojson == null) {
            throw notFound("coverage", "layer '" + layer + "' has no coverage '" + coverage + "'; it has "
                    + new TreeSet<>(info.coverages().keySet()));
        }
        return geojson;
    }

    @GET
    @Path("{layer}/tile-matrix-sets/{id}")
    @Operation(summary = "One of a layer's tile matrix sets, as OGC tile matrix set JSON (17-083r4)", description =
            "Its CRS, axis order and every tile matrix, and a 'proj4' member: the CRS as PROJ parameters, for a map "
            + "client such as proj4js. 404 problem+json for an unknown layer or a set the layer does not offer.")
    public ObjectNode tileMatrixSet(@PathParam("layer") String layer, @PathParam("id") String id) {
        LayerInfo info = layers.get().find(layer).orElseThrow(() -> notFound("layer", "no layer '"
                + layer + "'"));
        TileMatrixSet set = TileMatrixSet.byId(id).filter(info.tileMatrixSets()::contains).orElseThrow(() ->
                notFound("tileMatrixSet", "layer '" + layer + "' has no tile matrix set '" + id + "'"));
        ObjectNode json = TileMatrixSetJson.write(set);
        json.put("proj4", set.referenceSystem().proj4());
        return json;
    }

    private static NotFoundException notFound(String field, String reason) {
        return new NotFoundException(Problem.response(Response.Status.NOT_FOUND, reason,
                List.of(new FieldError(field, reason))));
    }
}
