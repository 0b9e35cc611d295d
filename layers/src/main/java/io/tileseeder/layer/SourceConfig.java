package io.tileseeder.layer;

/** Where a layer's pixels come from: its own GeoJSON drawn with a style, an upstream WMS, or a tile server. */
public sealed interface SourceConfig permits VectorSourceConfig, WmsSourceConfig, TileSourceConfig {
}
