package io.tileseeder.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tileseeder.port.Layout;
import io.tileseeder.runtime.settings.Settings;
import io.tileseeder.runtime.wiring.Stores;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * How the engine options of {@code seed} and {@code serve} combine with the settings from configuration
 * ({@code seeder.*}): an option given wins, an option left out keeps the configured value. Parses the
 * command line only; no application starts.
 */
class EngineOptionsCliTest {

    /** Settings as {@code Engines.settings()} would build them from configuration. */
    private static final Settings CONFIGURED = Settings.from(Settings.config(Map.of(
            "seeder.store.path", "/srv/configured-store", "seeder.layers.file", "/etc/seeder/layers.yaml",
            "seeder.workers.threads", "3")));

    private static Settings applied(String... args) {
        CommandLine cli = SeederMain.commandLine(null, null, null, Map.of());
        CommandLine.ParseResult parsed = cli.parseArgs(args).subcommand();
        Object command = parsed.commandSpec().userObject();
        EngineOptions options = command instanceof SeedCommand seed ? seed.engine : ((ServeCommand) command).engine;
        return options.apply(CONFIGURED);
    }

    @Test
    void optionsGivenWin() {
        Settings settings = applied("serve", "--out", "/data/tiles", "--layers", "/tmp/l.yaml", "--threads", "7");

        assertThat(settings.store().path()).isEqualTo("/data/tiles");
        assertThat(settings.layersFile()).contains(Path.of("/tmp/l.yaml"));
        assertThat(settings.workers().threads()).isEqualTo(7);
    }

    @Test
    void seedWithoutOptionsKeepsTheConfiguredLayersAndThreads() {
        Settings settings = applied("seed", "--layer", "world", "--zoom", "0");

        assertThat(settings.layersFile()).contains(Path.of("/etc/seeder/layers.yaml"));
        assertThat(settings.workers().threads()).isEqualTo(3);
    }

    /** --layout wins over seeder.store.layout, which {@code --out} keeps; an unknown one is refused naming both. */
    @Test
    void theLayoutIsTheOptionsElseTheSettingsAndAnUnknownOneIsRefused(@TempDir Path out) {
        Settings tms = Settings.from(Settings.config(Map.of("seeder.store.layout", "tms")));
        CommandLine cli = SeederMain.commandLine(null, null, null, Map.of());

        assertThat(((SeedCommand) cli.parseArgs("seed", "--layer", "world", "--zoom", "0", "--out", out.toString())
                .subcommand().commandSpec().userObject()).engine.apply(tms).store().layout()).isEqualTo(Layout.TMS);
        assertThat(applied("serve", "--layout", "QuadKey").store().layout()).isEqualTo(Layout.QUADKEY);
        assertThat(applied("serve").store().layout()).isEqualTo(Layout.XYZ);
        assertThatThrownBy(() -> applied("serve", "--layout", "arcgis"))
                .hasMessage("--layout: unknown layout 'arcgis'; one of xyz, tms, wmts, quadkey");
        assertThatThrownBy(() -> Settings.from(Settings.config(Map.of("seeder.store.layout", "tc"))))
                .hasMessage("seeder.store.layout: unknown layout 'tc'; one of xyz, tms, wmts, quadkey");
    }

    /** A single-file store names its tiles its own way: another layout with it is refused when it is opened. */
    @Test
    void aLayoutWithAnMbtilesFileOrAGeoPackageIsRefused(@TempDir Path out) {
        for (String file : new String[] {"world.mbtiles", "world.gpkg"}) {
            Settings settings = applied("serve", "--layout", "wmts", "--out", out.resolve(file).toString());
            assertThatThrownBy(() -> Stores.open(settings.store())).as(file)
                    .hasMessageStartingWith("layout wmts: " + out.resolve(file) + " is ")
                    .hasMessageEndingWith(", which names its tiles its own way; layouts are for folders and object "
                            + "stores");
        }
    }

    /**
     * docs/settings.md: {@code seeder.store.path} (SEEDER_STORE_PATH) is the "folder tiles are written to
     * ({@code serve})". So {@code SEEDER_STORE_PATH=/data ./seeder serve} must write to /data.
     */
    @Test
    void serveWithoutOutWritesToTheConfiguredStorePath() {
        Settings settings = applied("serve");

        assertThat(settings.store().path()).as("serve without --out: the store is seeder.store.path")
                .isEqualTo("/srv/configured-store");
    }

    /**
     * {@code SEEDER_STORE_PUBLIC_URL=https://… ./seeder seed --out DIR}: the public URL says where clients read the
     * store the process writes to, whichever names it, so the documents beside the tiles (TileJSON, WMTS capabilities)
     * name them there, not at the folder's file: URL.
     */
    @Test
    void thePublicUrlIsCheckedAndAppliesToTheStoreTheCommandLineNames(@TempDir Path out) {
        Settings settings = Settings.from(Settings.config(Map.of("seeder.store.path", "/srv/tiles",
                "seeder.store.public-url", "https://tiles.example.com/cache/")));
        assertThat(settings.store().publicUrl()).contains("https://tiles.example.com/cache");
        assertThat(settings.storedAt("/srv/other").store().publicUrl()).contains("https://tiles.example.com/cache");
        for (String option : new String[] {"--out", "--store"}) {
            CommandLine.ParseResult parsed = SeederMain.commandLine(null, null, null, Map.of())
                    .parseArgs("seed", "--layer", "world", "--zoom", "0", option, out.toString()).subcommand();
            Settings applied = ((SeedCommand) parsed.commandSpec().userObject()).engine.apply(settings);
            assertThat(applied.store().path()).isEqualTo(out.toString());
            assertThat(applied.store().publicUrl()).as(option).contains("https://tiles.example.com/cache");
            assertThat(Stores.open(applied.store()).publicUrl()).as("the store %s opens", option)
                    .isEqualTo("https://tiles.example.com/cache");
        }
        assertThat(Stores.open(applied("seed", "--layer", "world", "--zoom", "0", "--out", out.toString()).store())
                .publicUrl()).as("without a public URL: the folder's own").isEqualTo(out.toUri().toString()
                        .replaceAll("/$", ""));

        for (String bad : new String[] {"tiles.example.com/cache", "ftp://tiles.example.com", "https://x/?a=1"}) {
            assertThatThrownBy(() -> Settings.from(Settings.config(Map.of("seeder.store.public-url", bad))))
                    .as(bad).hasMessageContaining("seeder.store.public-url").hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void storeTakesAnS3Location() {
        assertThat(applied("seed", "--layer", "world", "--zoom", "0", "--store", "s3://tiles/cache").store().path())
                .isEqualTo("s3://tiles/cache");
    }
}
