package io.tileseeder.adapters.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.adapters.azure.AzureConnection;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BucketLocationTest {

    @Test
    void aContainerOrBucketAndItsPrefixAreRead() {
        assertThat(BucketLocation.parse("az://tiles/cache/world/")).isEqualTo(new BucketLocation(
                BucketLocation.Scheme.AZ, "tiles", "cache/world"));
        assertThat(BucketLocation.parse("GS://my_tiles")).isEqualTo(new BucketLocation(BucketLocation.Scheme.GS,
                "my_tiles", ""));
        assertThat(BucketLocation.parse("gs://tiles/a").toString()).isEqualTo("gs://tiles/a");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "s3://tiles/a | 's3://tiles/a' is not a cloud location: expected az://container/prefix or gs://bucket/prefix",
            "az:// | 'az://' names no container: expected az://container/prefix",
            "az://Tiles | 'az://Tiles': invalid container name 'Tiles': 3 to 63 lower-case letters",
            "az://my_tiles | invalid container name 'my_tiles'",
            "az://a--b | invalid container name 'a--b'",
            "gs://ab | invalid bucket name 'ab'",
            "gs://tiles/a//b | 'gs://tiles/a//b': invalid prefix 'a//b': contains an empty segment ('//')",
            "gs://tiles/../b | invalid prefix '../b': contains a '..' segment"})
    void aLocationThatNamesNoValidBucketIsRefusedWithWhatIsWrong(String location, String message) {
        assertThatThrownBy(() -> BucketLocation.parse(location)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void anAzureAccountNeedsAConnectionStringOrAnEndpointWithAKeyOrASasToken() {
        assertThatThrownBy(() -> new AzureConnection(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty())).hasMessageContaining("seeder.azure.connection-string");
        assertThatThrownBy(() -> new AzureConnection(Optional.empty(), Optional.of("https://a.blob.core.windows.net"),
                Optional.empty(), Optional.empty(), Optional.empty()))
                .hasMessageContaining("needs an account key").hasMessageContaining("or a SAS token");
        assertThatThrownBy(() -> new AzureConnection(Optional.empty(), Optional.of("https://a.blob.core.windows.net"),
                Optional.empty(), Optional.of("key"), Optional.empty())).hasMessageContaining("seeder.azure.account-name");
        assertThat(AzureConnection.of("AccountKey=secret").toString()).doesNotContain("secret");
    }
}
