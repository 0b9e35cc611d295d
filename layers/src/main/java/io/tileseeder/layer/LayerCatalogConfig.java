package io.tileseeder.layer;

import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The configured layers, read from {@code source}. */
public final class LayerCatalogConfig implements LayerCatalog {

    private final String source;
    private final Map<String, LayerConfig> layers = new LinkedHashMap<>();

    public LayerCatalogConfig(String source, List<LayerConfig> layers) {
        this.source = source;
        layers.forEach(layer -> this.layers.put(layer.name(), layer));
    }

    public String source() {
        return source;
    }

    public Optional<LayerConfig> layer(String name) {
        return Optional.ofNullable(layers.get(name));
    }

    public Collection<LayerConfig> layers() {
        return layers.values();
    }

    @Override
    public Optional<LayerInfo> find(String name) {
        return layer(name).map(LayerConfig::info);
    }

    @Override
    public Collection<LayerInfo> all() {
        return layers.values().stream().map(LayerConfig::info).toList();
    }
}
