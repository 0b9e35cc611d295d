package io.tileseeder.render;

import io.tileseeder.job.TileFormat;
import io.tileseeder.layer.LayerCatalogConfig;
import io.tileseeder.layer.LayerConfig;
import io.tileseeder.layer.VectorSourceConfig;
import io.tileseeder.layer.TileSourceConfig;
import io.tileseeder.layer.WmsSourceConfig;
import io.tileseeder.layer.WmtsSourceConfig;
import io.tileseeder.render.tile.TileSource;
import io.tileseeder.render.tile.WmtsSource;
import io.tileseeder.render.encode.JpegEncoder;
import io.tileseeder.render.encode.JpegPngEncoder;
import io.tileseeder.render.encode.PngEncoder;
import io.tileseeder.render.encode.TileEncoder;
import io.tileseeder.render.encode.WebpEncoder;
import io.tileseeder.render.wms.WmsClient;
import io.tileseeder.render.wms.WmsSource;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a worker needs per layer, made on first use and then shared by all its threads: the layer's source (its
 * features, or its upstream WMS) and its encoders. A layer whose data cannot be read fails the tasks that need it
 * (and is tried again by the next task), rather than stopping the worker.
 */
public final class LayerResources {

    private final LayerCatalogConfig catalog;
    private final WmsClient wms;
    private final Map<String, MetatileSource> sources = new ConcurrentHashMap<>();
    private final Map<String, TileEncoder> encoders = new ConcurrentHashMap<>();

    /** @param wms the process's client of upstream WMSes, which caps the requests to each */
    public LayerResources(LayerCatalogConfig catalog, WmsClient wms) {
        this.catalog = catalog;
        this.wms = wms;
    }

    public LayerConfig layer(String name) {
        return catalog.layer(name).orElseThrow(() -> new IllegalArgumentException("unknown layer '" + name + "'"));
    }

    public MetatileSource source(LayerConfig layer) throws IOException {
        MetatileSource source = sources.get(layer.name());
        if (source == null) {
            synchronized (this) {
                source = sources.get(layer.name());
                if (source == null) {
                    source = open(layer);
                    sources.put(layer.name(), source);
                }
            }
        }
        return source;
    }

    private MetatileSource open(LayerConfig layer) throws IOException {
        return switch (layer.source()) {
            case VectorSourceConfig vector -> {
                VectorSource features = VectorSource.load(vector.data());
                yield (metatile, gutter, dimensions) -> VectorRenderer.render(features, metatile, gutter, vector.style());
            }
            case WmsSourceConfig upstream -> new WmsSource(upstream, wms);
            case TileSourceConfig upstream -> new TileSource(upstream, wms);
            case WmtsSourceConfig upstream -> new WmtsSource(upstream, layer.tileMatrixSets().iterator().next(),
                    layer.dimensions(), wms);
        };
    }

    public TileEncoder encoder(LayerConfig layer, TileFormat format) {
        return encoders.computeIfAbsent(layer.name() + "/" + format.id(), key -> switch (format) {
            case PNG -> PngEncoder.rgba(layer.pngLevel());
            case PNG8 -> PngEncoder.png8(layer.pngLevel());
            case JPEG -> new JpegEncoder(layer.jpegQuality(), layer.background().getRGB());
            case JPEG_PNG -> new JpegPngEncoder(new JpegEncoder(layer.jpegQuality(), layer.background().getRGB()),
                    layer.pngLevel());
            case WEBP -> WebpEncoder.lossy(layer.webpQuality());
            case WEBP_LOSSLESS -> WebpEncoder.lossless();
        });
    }
}
