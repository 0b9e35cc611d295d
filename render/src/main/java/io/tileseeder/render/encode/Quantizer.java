package io.tileseeder.render.encode;

import io.tileseeder.render.TileView;
import java.util.Arrays;

/**
 * Reduces a tile of more colours than a palette holds to at most {@value Palette#MAX}, for {@code png8}: Heckbert's
 * median cut ("Color image quantization for frame buffer display", SIGGRAPH 1982) over the tile's histogram, then
 * {@value #REFINEMENTS} rounds of k-means (Lloyd) refinement of the palette, then each colour mapped to the palette
 * colour nearest to it. No dithering: it adds noise that map tiles do not need and deflate compresses badly.
 *
 * <p>Colours are compared in premultiplied RGBA ({@code R·A/255, G·A/255, B·A/255, A}), squared Euclidean distance:
 * the colour of a nearly transparent pixel weighs as little as it shows.
 *
 * <p>What it promises, the error bound of {@code png8} (tested on rendered tiles):
 * <ul>
 *   <li>Alpha is kept in three classes: a fully transparent pixel stays fully transparent, an opaque pixel stays
 *       opaque, and a translucent one stays translucent. Each class is quantised on its own, with palette colours
 *       of its own, so no opaque fill turns see-through and no empty area gains a tint.</li>
 *   <li>Every pixel gets the palette colour nearest to it among those of its class.</li>
 *   <li>Fully transparent pixels all become transparent black ({@code 0x00000000}): their colour is never seen.</li>
 * </ul>
 * Reused for every tile of one thread.
 */
final class Quantizer {

    static final int REFINEMENTS = 2;

    private static final int TRANSPARENT = 0;
    private static final int TRANSLUCENT = 1;
    private static final int OPAQUE = 2;
    private static final int CLASSES = 3;

    // The histogram: an open-addressing table from colour to its entry, and each pixel's entry.
    private int[] slotColour = new int[0];
    private int[] slotEntry = new int[0];
    private int[] pixelEntry = new int[0];

    // The distinct colours (entries): weight and premultiplied coordinates, and their order, grouped by class.
    private int entries;
    private int[] weight = new int[0];
    private int[][] coord = new int[4][0];
    private int[] entryClass = new int[0];
    private int[] order = new int[0];
    private long[] sortKeys = new long[0];
    private byte[] entryIndex = new byte[0];

    // The boxes of the median cut, as ranges of order.
    private final int[] boxFrom = new int[Palette.MAX];
    private final int[] boxTo = new int[Palette.MAX];
    private final double[] boxError = new double[Palette.MAX];
    /** Each box's axis of largest spread: where it is cut. */
    private final int[] boxAxis = new int[Palette.MAX];
    private final double[] axisError = new double[4];
    private final int[] entryClassStart = new int[CLASSES + 1];
    private final int[] classNext = new int[CLASSES];
    private int boxes;

    // The palette: straight ARGB, premultiplied coordinates, class ranges; and the k-means sums.
    private final int[] colours = new int[Palette.MAX];
    private final int[][] paletteCoord = new int[4][Palette.MAX];
    private final int[] classStart = new int[CLASSES + 1];
    private final long[][] sums = new long[4][Palette.MAX];
    private final long[] sumWeight = new long[Palette.MAX];
    /** Per class, the palette indices of the class sorted by green: where the nearest-colour search starts. */
    private final int[] byGreen = new int[Palette.MAX];
    private final long[] greenKeys = new long[Palette.MAX];

    /**
     * Quantises the tile (with {@code alpha} false, its colours as opaque) into {@code palette}: its colours, the
     * ones not opaque first, and each pixel's index.
     */
    void quantise(TileView tile, boolean alpha, Palette palette) {
        int pixels = tile.width() * tile.height();
        histogram(tile, alpha ? 0 : 0xFF000000, pixels);
        medianCut();
        boxMeans();
        for (int round = 0; round < REFINEMENTS; round++) {
            assignNearest();
            means();
        }
        assignNearest();
        byte[] indices = palette.indices(pixels);
        for (int i = 0; i < pixels; i++) {
            indices[i] = entryIndex[pixelEntry[i]];
        }
        palette.set(colours, classStart[CLASSES], classStart[OPAQUE]);
    }

    private void histogram(TileView tile, int opaque, int pixels) {
        int slots = Integer.highestOneBit(Math.max(16, pixels) * 2 - 1) << 1;
        if (slotColour.length < slots) {
            slotColour = new int[slots];
            slotEntry = new int[slots];
        }
        if (pixelEntry.length < pixels) {
            pixelEntry = new int[pixels];
            weight = new int[pixels];
            coord = new int[4][pixels];
            entryClass = new int[pixels];
            order = new int[pixels];
            sortKeys = new long[pixels];
            entryIndex = new byte[pixels];
        }
        Arrays.fill(slotEntry, 0, slots, -1);
        int shift = 32 - Integer.numberOfTrailingZeros(slots);
        entries = 0;
        int[] src = tile.pixels();
        int last = 0;
        int lastEntry = -1;
        int i = 0;
        for (int y = 0, row = tile.offset(); y < tile.height(); y++, row += tile.scanlineStride()) {
            for (int x = row, end = row + tile.width(); x < end; x++) {
                int argb = src[x] | opaque;
                if (argb >>> 24 == 0) {
                    argb = 0;
                }
                if (argb != last || lastEntry < 0) {
                    lastEntry = entryOf(argb, shift, slots - 1);
                    last = argb;
                }
                weight[lastEntry]++;
                pixelEntry[i++] = lastEntry;
            }
        }
    }

    private int entryOf(int argb, int shift, int mask) {
        int slot = (argb * 0x9E3779B9) >>> shift;
        while (slotEntry[slot] >= 0) {
            if (slotColour[slot] == argb) {
                return slotEntry[slot];
            }
            slot = (slot + 1) & mask;
        }
        int e = entries++;
        slotColour[slot] = argb;
        slotEntry[slot] = e;
        weight[e] = 0;
        int a = argb >>> 24;
        coord[0][e] = a;
        coord[1][e] = premultiply(argb >>> 16 & 0xFF, a);
        coord[2][e] = premultiply(argb >>> 8 & 0xFF, a);
        coord[3][e] = premultiply(argb & 0xFF, a);
        entryClass[e] = a == 0 ? TRANSPARENT : a == 0xFF ? OPAQUE : TRANSLUCENT;
        return e;
    }

    static int premultiply(int channel, int alpha) {
        return (channel * alpha + 127) / 255;
    }

    /** One box per class present, then splits the box of the largest error until there are enough. */
    private void medianCut() {
        int[] count = entryClassStart;
        Arrays.fill(count, 0);
        for (int e = 0; e < entries; e++) {
            count[entryClass[e] + 1]++;
        }
        for (int c = 0; c < CLASSES; c++) {
            count[c + 1] += count[c];
        }
        System.arraycopy(count, 0, classNext, 0, CLASSES);
        for (int e = 0; e < entries; e++) {
            order[classNext[entryClass[e]]++] = e;
        }
        boxes = 0;
        for (int c = 0; c < CLASSES; c++) {
            if (count[c + 1] > count[c]) {
                addBox(count[c], count[c + 1]);
            }
        }
        while (boxes < Palette.MAX) {
            int worst = -1;
            for (int b = 0; b < boxes; b++) {
                if (boxError[b] > 0 && (worst < 0 || boxError[b] > boxError[worst])) {
                    worst = b;
                }
            }
            if (worst < 0) {
                return;
            }
            split(worst);
        }
    }

    private void addBox(int from, int to) {
        boxFrom[boxes] = from;
        boxTo[boxes] = to;
        boxError[boxes] = 0;
        if (to - from >= 2) {
            boxError[boxes] = spread(from, to, axisError);
            int axis = 0;
            for (int a = 1; a < 4; a++) {
                if (axisError[a] > axisError[axis]) {
                    axis = a;
                }
            }
            boxAxis[boxes] = axis;
        }
        boxes++;
    }

    /** The box's weighted squared error around its mean, and each axis's share in {@code perAxis}. */
    private double spread(int from, int to, double[] perAxis) {
        double total = 0;
        for (int axis = 0; axis < 4; axis++) {
            int[] values = coord[axis];
            long w = 0;
            long sum = 0;
            long squares = 0;
            for (int k = from; k < to; k++) {
                int e = order[k];
                long v = values[e];
                w += weight[e];
                sum += weight[e] * v;
                squares += weight[e] * v * v;
            }
            double error = squares - (double) sum * sum / w;
            perAxis[axis] = error;
            total += error;
        }
        return total;
    }

    /** Splits the box at the weighted median of its axis of largest spread. */
    private void split(int box) {
        int from = boxFrom[box];
        int to = boxTo[box];
        int axis = boxAxis[box];
        long total = 0;
        for (int k = from; k < to; k++) {
            int e = order[k];
            sortKeys[k] = (long) coord[axis][e] << 32 | e;
            total += weight[e];
        }
        Arrays.sort(sortKeys, from, to);
        long half = 0;
        int cut = from + 1;
        for (int k = from; k < to - 1; k++) {
            int e = (int) sortKeys[k];
            order[k] = e;
            half += weight[e];
            cut = k + 1;
            if (2 * half >= total) {
                break;
            }
        }
        for (int k = cut; k < to; k++) {
            order[k] = (int) sortKeys[k];
        }
        boxes--;
        boxFrom[box] = boxFrom[boxes];
        boxTo[box] = boxTo[boxes];
        boxError[box] = boxError[boxes];
        boxAxis[box] = boxAxis[boxes];
        addBox(from, cut);
        addBox(cut, to);
    }

    /** The palette from the boxes' weighted means, grouped by class (the boxes of one class hold one class). */
    private void boxMeans() {
        Arrays.fill(sumWeight, 0);
        for (long[] s : sums) {
            Arrays.fill(s, 0);
        }
        int p = 0;
        for (int c = 0; c < CLASSES; c++) {
            classStart[c] = p;
            for (int b = 0; b < boxes; b++) {
                if (entryClass[order[boxFrom[b]]] != c) {
                    continue;
                }
                for (int k = boxFrom[b]; k < boxTo[b]; k++) {
                    accumulate(p, order[k]);
                }
                p++;
            }
        }
        classStart[CLASSES] = p;
        Arrays.fill(colours, p, Palette.MAX, 0);
        for (int i = 0; i < p; i++) {
            setMean(i);
        }
    }

    private void accumulate(int index, int e) {
        long w = weight[e];
        sumWeight[index] += w;
        for (int axis = 0; axis < 4; axis++) {
            sums[axis][index] += w * coord[axis][e];
        }
    }

    /** Palette colour {@code i} becomes the mean of what was accumulated for it, if anything was. */
    private void setMean(int i) {
        long w = sumWeight[i];
        if (w == 0) {
            return;
        }
        int a = (int) ((sums[0][i] + w / 2) / w);
        int argb = 0;
        if (a > 0) {
            argb = a << 24;
            for (int axis = 1; axis < 4; axis++) {
                long premultiplied = sums[axis][i];
                int straight = (int) Math.min(255, (premultiplied * 255 + w * a / 2) / (w * a));
                argb |= straight << (8 * (3 - axis));
            }
        }
        colours[i] = argb;
        paletteCoord[0][i] = a;
        paletteCoord[1][i] = premultiply(argb >>> 16 & 0xFF, a);
        paletteCoord[2][i] = premultiply(argb >>> 8 & 0xFF, a);
        paletteCoord[3][i] = premultiply(argb & 0xFF, a);
    }

    /** One k-means step: the palette colours become the means of the colours nearest to them. */
    private void means() {
        Arrays.fill(sumWeight, 0);
        for (long[] s : sums) {
            Arrays.fill(s, 0);
        }
        for (int e = 0; e < entries; e++) {
            accumulate(entryIndex[e] & 0xFF, e);
        }
        for (int i = 0; i < classStart[CLASSES]; i++) {
            setMean(i);
        }
    }

    /** Maps each colour to the nearest palette colour of its class. */
    private void assignNearest() {
        for (int c = 0; c < CLASSES; c++) {
            int start = classStart[c];
            int end = classStart[c + 1];
            for (int i = start; i < end; i++) {
                greenKeys[i] = (long) paletteCoord[2][i] << 32 | i;
            }
            Arrays.sort(greenKeys, start, end);
            for (int i = start; i < end; i++) {
                byGreen[i] = (int) greenKeys[i];
            }
        }
        for (int e = 0; e < entries; e++) {
            int c = entryClass[e];
            entryIndex[e] = (byte) nearest(e, classStart[c], classStart[c + 1]);
        }
    }

    /**
     * The palette colour of {@code [start, end)} nearest to entry {@code e}: a walk outwards from the entry's green
     * in the green-sorted palette, stopping on each side once green alone is farther than the best found.
     */
    private int nearest(int e, int start, int end) {
        int a = coord[0][e];
        int r = coord[1][e];
        int g = coord[2][e];
        int b = coord[3][e];
        int lo = start;
        int hi = end;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (paletteCoord[2][byGreen[mid]] < g) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int best = -1;
        int bestDistance = Integer.MAX_VALUE;
        int up = lo;
        int down = lo - 1;
        while (up < end || down >= start) {
            if (up < end) {
                int i = byGreen[up];
                int dg = paletteCoord[2][i] - g;
                if (dg * dg > bestDistance) {
                    up = end;
                } else {
                    int d = distance(i, a, r, g, b);
                    if (d < bestDistance || d == bestDistance && i < best) {
                        best = i;
                        bestDistance = d;
                    }
                    up++;
                }
            }
            if (down >= start) {
                int i = byGreen[down];
                int dg = paletteCoord[2][i] - g;
                if (dg * dg > bestDistance) {
                    down = start - 1;
                } else {
                    int d = distance(i, a, r, g, b);
                    if (d < bestDistance || d == bestDistance && i < best) {
                        best = i;
                        bestDistance = d;
                    }
                    down--;
                }
            }
        }
        return best;
    }

    private int distance(int i, int a, int r, int g, int b) {
        int da = paletteCoord[0][i] - a;
        int dr = paletteCoord[1][i] - r;
        int dg = paletteCoord[2][i] - g;
        int db = paletteCoord[3][i] - b;
        return da * da + dr * dr + dg * dg + db * db;
    }
}
