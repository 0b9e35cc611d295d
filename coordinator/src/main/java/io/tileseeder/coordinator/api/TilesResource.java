package io.tileseeder.coordinator.api;

import io.tileseeder.coordinator.Engines;
import io.tileseeder.coordinator.access.Roles;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.TileFormat;
import io.tileseeder.port.TileKey;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.Arrays;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Serves seeded tiles from the store, for the preview map. A CDN or object store serves them in production. */
@Path("/tiles")
@RolesAllowed(Roles.READ)
public class TilesResource {

    private final Engines engines;

    public TilesResource(Engines engines) {
        this.engines = engines;
    }

    @GET
    @Path("{layer}/{tms}/{z: \\d+}/{x: \\d+}/{y: \\d+}.{ext}")
    @Operation(summary = "A seeded tile", description = "404 if it was not seeded (or was empty and skipped).")
    public Response tile(@PathParam("layer") String layer, @PathParam("tms") String tms, @PathParam("z") int z,
                         @PathParam("x") int x, @PathParam("y") int y, @PathParam("ext") String ext)
            throws IOException {
        TileMatrixSet matrixSet = TileMatrixSet.byId(tms).orElseThrow(() -> JobsResource.badRequest("tileMatrixSet",
                "unknown tile matrix set '" + tms + "'"));
        TileFormat format = Arrays.stream(TileFormat.values()).filter(f -> f.extension().equals(ext)).findFirst()
                .orElseThrow(() -> JobsResource.badRequest("ext", "unknown tile extension '" + ext + "'"));
        if (z > TileMatrixSet.MAX_ZOOM || x >= matrixSet.matrixWidth(Math.min(z, TileMatrixSet.MAX_ZOOM))
                || y >= matrixSet.matrixHeight(Math.min(z, TileMatrixSet.MAX_ZOOM))) {
            return Problem.response(Response.Status.NOT_FOUND, "tile " + z + "/" + x + "/" + y + " is outside " + tms);
        }
        TileKey key = new TileKey(layer, matrixSet, TileCoord.of(z, x, y), format);
        return engines.engine().store().read(key)
                .map(bytes -> Response.ok(bytes, format.contentType()).header("Cache-Control", "no-cache").build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).build());
    }
}
