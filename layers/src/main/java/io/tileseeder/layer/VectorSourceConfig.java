package io.tileseeder.layer;

import java.util.List;

/**
 * The {@code vector} source: GeoJSON features drawn with Java2D.
 *
 * @param data  the GeoJSON files
 * @param style rules applied in order
 */
public record VectorSourceConfig(List<LayerConfig.DataFile> data, List<StyleRule> style) implements SourceConfig {

    public VectorSourceConfig {
        data = List.copyOf(data);
        style = List.copyOf(style);
    }
}
