package io.tileseeder.coordinatorapp;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.tileseeder.layer.LayerConfigException;
import io.tileseeder.server.Engines;
import io.tileseeder.server.access.Access;
import io.tileseeder.server.api.HttpLimits;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The coordinator of the distributed mode, as its image runs it: the REST API and console in front of the job
 * lifecycle on Kafka, Redis and the store, until stopped. Configured by its settings only ({@code SEEDER_*}, see the
 * manual's Settings page), which must name a tokens file; the API on port 8080, health and metrics on 9080.
 */
@QuarkusMain
public class CoordinatorMain implements QuarkusApplication {

    /** As the seeder command line's: a setting or an argument is wrong. */
    static final int USAGE = 1;

    private final Engines engines;
    private final Access access;

    public CoordinatorMain(Engines engines, Access access) {
        this.engines = engines;
        this.access = access;
    }

    /**
     * Turns off Quarkus's own check of request targets before Quarkus starts, so that {@link HttpLimits} makes it
     * and answers with a problem (see there).
     */
    public static void main(String... args) {
        System.setProperty(HttpLimits.NO_BARE_URI_CHECK, "true");
        Quarkus.run(CoordinatorMain.class, args);
    }

    @Override
    public int run(String... args) {
        if (args.length > 0) {
            System.err.println("error: the coordinator takes no arguments (got '" + String.join(" ", args) + "'): it "
                    + "is configured by its settings, SEEDER_KAFKA_BOOTSTRAP, SEEDER_REDIS_URL, SEEDER_STORE_PATH …");
            return USAGE;
        }
        if (!access.enabled()) {
            System.err.println("error: the coordinator needs API tokens: set SEEDER_AUTH_TOKENS_FILE "
                    + "(seeder.auth.tokens-file) to a file of lines NAME ROLE TOKEN");
            return USAGE;
        }
        try {
            access.tokens();
            engines.start(engines.settings());
        } catch (LayerConfigException | IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return USAGE;
        }
        int port = ConfigProvider.getConfig().getValue("quarkus.http.port", Integer.class);
        int management = ConfigProvider.getConfig().getValue("quarkus.management.port", Integer.class);
        System.out.printf("Tile Seeder coordinator listening on port %d (API /api/v1, Swagger UI /q/swagger-ui; "
                + "health and metrics on port %d)%n", port, management);
        System.out.flush();
        Quarkus.waitForExit();
        return 0;
    }
}
