package io.tileseeder.worker.task;

import io.tileseeder.layer.EmptyTilePolicy;
import io.tileseeder.message.MetatileTask;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The store's memory of metatiles done: a small document per metatile, written after every tile of it is stored
 * (or found empty and, as the layer asks, not stored). A seed finds the metatile done with one look-up instead of
 * one per tile, and does not render it again for the empty tiles that look missing.
 *
 * <p>The marker is named after what it vouches for: {@code done/{format}-{w}x{h}-{empty tiles}/{z}/{x}/{y}} beside
 * the layer's tiles. A seed in another format, with metatiles of another size, or storing empty tiles where they
 * were skipped finds no marker and looks at each tile. A truncate deletes the markers before the tiles; a reseed
 * writes the marker again after its tiles. Only a task over the whole metatile writes one: a job over an area or
 * a tile list that stores part of it leaves the metatile unmarked.
 */
final class DoneMetatiles {

    private DoneMetatiles() {
    }

    /** The marker a task of a layer with this empty-tile policy writes and trusts. */
    static String marker(MetatileTask task, EmptyTilePolicy emptyTiles) {
        return "done/" + task.format().id() + "-" + task.metatileWidth() + "x" + task.metatileHeight() + "-"
                + emptyTiles.name().toLowerCase(Locale.ROOT) + "/" + task.z() + "/" + task.metatileX() + "/"
                + task.metatileY();
    }

    /** Every marker the task's metatile may have, whatever the layer's empty-tile policy was when it was seeded. */
    static List<String> markers(MetatileTask task) {
        return Arrays.stream(EmptyTilePolicy.values()).map(policy -> marker(task, policy)).toList();
    }

    /** Whether the task stores every tile of its metatile, so that once it is done, the metatile is. */
    static boolean coversMetatile(MetatileTask task) {
        return task.mask() == null && task.tiles().equals(task.metatile().tiles());
    }
}
