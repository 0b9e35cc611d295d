package io.tileseeder.app.api;

import io.tileseeder.app.Engines;
import io.tileseeder.app.access.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** The layers this deployment can seed. */
@Path("/api/v1/layers")
@RolesAllowed(Roles.READ)
@Produces(MediaType.APPLICATION_JSON)
public class LayersResource {

    private final Engines engines;

    public LayersResource(Engines engines) {
        this.engines = engines;
    }

    @GET
    @Operation(summary = "List the configured layers")
    public List<LayerView> list() {
        return engines.engine().layers().all().stream().map(LayerView::of).toList();
    }
}
