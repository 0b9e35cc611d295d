package io.tileseeder.adapters.gcs;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How to reach Google Cloud Storage: by default the Application Default Credentials (a service account on GKE, or
 * {@code GOOGLE_APPLICATION_CREDENTIALS}); or a service account's JSON key file; or an emulator's address, which
 * takes no credentials. The project is the one new buckets are made in.
 */
public record GcsConnection(Optional<String> endpoint, Optional<Path> credentialsFile, Optional<String> project) {

    /** An emulator at {@code endpoint} (e.g. fake-gcs-server at {@code http://127.0.0.1:4443}). */
    public static GcsConnection emulator(String endpoint, String project) {
        return new GcsConnection(Optional.of(endpoint), Optional.empty(), Optional.of(project));
    }
}
