package io.tileseeder.layer;

/** Where a layer's pixels come from: its own GeoJSON drawn with a style, or an upstream WMS. */
public sealed interface SourceConfig permits VectorSourceConfig, WmsSourceConfig {
}
