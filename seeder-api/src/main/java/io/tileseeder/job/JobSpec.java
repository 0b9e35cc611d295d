package io.tileseeder.job;

import io.tileseeder.grid.Bounds;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.grid.TileRange;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A validated job: every field present, typed and within the layer's and the deployment's limits. Made by
 * {@link JobSpecValidator#validate}.
 */
public record JobSpec(String layer, TileMatrixSet tileMatrixSet, int minZoom, int maxZoom, Bounds bbox,
                      TileFormat format, Mode mode, MetatileSize metatile, Instant refreshBefore, int priority,
                      Map<String, String> labels) {

    public JobSpec {
        labels = Map.copyOf(labels);
    }

    /** The tiles of zoom {@code z} this job covers. */
    public TileRange tiles(int z) {
        return tileMatrixSet.tileRange(bbox, z);
    }

    /** How many tiles the job covers over all its zoom levels. */
    public long tileCount() {
        long count = 0;
        for (int z = minZoom; z <= maxZoom; z++) {
            count += tiles(z).count();
        }
        return count;
    }

    /** The job as a client would have written it, with every default filled in. */
    public JobRequest toRequest() {
        return new JobRequest(layer, tileMatrixSet.id(), new JobRequest.Zoom(minZoom, maxZoom),
                List.of(bbox.minX(), bbox.minY(), bbox.maxX(), bbox.maxY()), format.id(), mode.id(),
                new JobRequest.Metatile(metatile.width(), metatile.height()), refreshBefore, priority, labels);
    }
}
