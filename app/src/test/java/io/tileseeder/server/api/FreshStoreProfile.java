package io.tileseeder.server.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.UUID;

/**
 * Gives the API tests a tile store of their own, new on every run, so that what a job writes or skips does not
 * depend on tiles left over from an earlier run in {@code target/test-tiles}. Every API test uses this one
 * profile, so Quarkus starts once for all of them.
 */
public class FreshStoreProfile implements QuarkusTestProfile {

    /** The store root for this JVM, relative to the module folder (the test's working directory). */
    static final String STORE = "target/test-tiles/run-" + UUID.randomUUID();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("seeder.store.path", STORE);
    }
}
