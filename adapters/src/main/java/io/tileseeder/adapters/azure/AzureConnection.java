package io.tileseeder.adapters.azure;

import java.util.Optional;

/**
 * How to reach an Azure Storage account, by the means Azure's own tools take: a connection string (Azurite's
 * development one among them), or else the blob endpoint with the account's name and key, or else with a SAS token.
 * Never printed: {@link #toString} names the endpoint only.
 */
public record AzureConnection(Optional<String> connectionString, Optional<String> endpoint,
                              Optional<String> accountName, Optional<String> accountKey, Optional<String> sasToken) {

    public AzureConnection {
        boolean connection = connectionString.isPresent();
        if (!connection && endpoint.isEmpty()) {
            throw new IllegalArgumentException("an Azure store needs a connection string (seeder.azure.connection-string,"
                    + " SEEDER_AZURE_CONNECTION_STRING), or the blob endpoint (seeder.azure.endpoint) with an account "
                    + "key or a SAS token");
        }
        if (!connection && accountKey.isEmpty() && sasToken.isEmpty()) {
            throw new IllegalArgumentException("the Azure endpoint " + endpoint.get() + " needs an account key "
                    + "(seeder.azure.account-name and seeder.azure.account-key) or a SAS token (seeder.azure.sas-token)");
        }
        if (accountKey.isPresent() && accountName.isEmpty()) {
            throw new IllegalArgumentException("an Azure account key needs its account's name (seeder.azure.account-name)");
        }
    }

    /** The account of a connection string. */
    public static AzureConnection of(String connectionString) {
        return new AzureConnection(Optional.of(connectionString), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    @Override
    public String toString() {
        return "AzureConnection[" + endpoint.orElse("from a connection string") + "]";
    }
}
