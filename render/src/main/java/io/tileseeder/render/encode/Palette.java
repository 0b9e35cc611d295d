package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;
import java.util.Arrays;

/**
 * The colours of one tile, if it has at most {@link #MAX} of them, and each pixel's index among them: what an
 * indexed PNG is written from. One pass over the pixels, with an open-addressing table from colour to index (a run
 * of one colour, the common case in a map tile, is looked up once). The colours that are not opaque are moved to
 * the front, so that a tRNS chunk ends at the last of them. Reused for every tile of one thread.
 */
final class Palette {

    static final int MAX = 256;
    /** Slots of the table: four times the most colours, a power of two. */
    private static final int SLOTS = 1024;

    private final int[] keys = new int[SLOTS];
    private final short[] values = new short[SLOTS];
    private final int[] colours = new int[MAX];
    private final int[] renumbered = new int[MAX];
    private final byte[] remap = new byte[MAX];
    private byte[] indices = new byte[0];
    private int size;
    private int translucent;

    /**
     * Indexes the tile's pixels (with {@code alpha} false, their colours as opaque); answers how many colours it has,
     * or -1 if more than {@link #MAX}.
     */
    int index(TileView tile, boolean alpha) {
        Arrays.fill(values, (short) -1);
        size = 0;
        int width = tile.width();
        int height = tile.height();
        indices(width * height);
        int[] pixels = tile.pixels();
        int opaque = alpha ? 0 : 0xFF000000;
        int last = ~(pixels[tile.offset()] | opaque);
        int lastIndex = 0;
        int i = 0;
        for (int y = 0, row = tile.offset(); y < height; y++, row += tile.scanlineStride()) {
            for (int x = row, end = row + width; x < end; x++) {
                int argb = pixels[x] | opaque;
                if (argb != last) {
                    lastIndex = indexOf(argb);
                    if (lastIndex < 0) {
                        return -1;
                    }
                    last = argb;
                }
                indices[i++] = (byte) lastIndex;
            }
        }
        frontTranslucent(width * height);
        return size;
    }

    /** The colour's index, added if new; -1 if the palette is full. */
    private int indexOf(int argb) {
        int slot = (argb * 0x9E3779B9) >>> 22;
        while (values[slot] >= 0) {
            if (keys[slot] == argb) {
                return values[slot];
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        if (size == MAX) {
            return -1;
        }
        keys[slot] = argb;
        values[slot] = (short) size;
        colours[size] = argb;
        return size++;
    }

    /** Renumbers the colours so that those not opaque come first, in the order they were met. */
    private void frontTranslucent(int pixels) {
        int next = 0;
        for (int c = 0; c < size; c++) {
            if (colours[c] >>> 24 != 0xFF) {
                remap[c] = (byte) next++;
            }
        }
        translucent = next;
        if (translucent == 0 || translucent == size) {
            return;
        }
        for (int c = 0; c < size; c++) {
            if (colours[c] >>> 24 == 0xFF) {
                remap[c] = (byte) next++;
            }
        }
        for (int c = 0; c < size; c++) {
            renumbered[remap[c] & 0xFF] = colours[c];
        }
        System.arraycopy(renumbered, 0, colours, 0, size);
        for (int i = 0; i < pixels; i++) {
            indices[i] = remap[indices[i] & 0xFF];
        }
    }

    /**
     * Takes colours chosen elsewhere ({@link Quantizer}): {@code colours[0..size)}, the {@code translucent} ones not
     * opaque first. Each pixel's index is written into {@link #indices(int)} by the caller.
     */
    void set(int[] colours, int size, int translucent) {
        System.arraycopy(colours, 0, this.colours, 0, size);
        this.size = size;
        this.translucent = translucent;
    }

    /** The array of each pixel's index, with room for {@code pixels} of them. */
    byte[] indices(int pixels) {
        if (indices.length < pixels) {
            indices = new byte[pixels];
        }
        return indices;
    }

    /** The colour of index {@code i}, ARGB. */
    int colour(int i) {
        return colours[i];
    }

    /** How many colours. */
    int size() {
        return size;
    }

    /** How many colours, from index 0, are not opaque. */
    int translucent() {
        return translucent;
    }

    /** Each pixel's index, row by row, {@code width × height} of them (the array may be longer). */
    byte[] indices() {
        return indices;
    }
}
