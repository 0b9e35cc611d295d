package io.tileseeder.layer;

/** Where a layer's pixels come from: its own GeoJSON drawn with a style, an upstream WMS, a tile server or a WMTS. */
public sealed interface SourceConfig permits VectorSourceConfig, WmsSourceConfig, TileSourceConfig, WmtsSourceConfig {
}
