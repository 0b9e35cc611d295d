package io.tileseeder.grid;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Lists of tiles as osm2pgsql's expire output and most tools write them: one {@code z/x/y} per line. Blank lines and
 * surrounding spaces are ignored; anything else that is not a tile of the tile matrix set is an error naming its line.
 * The form of a job's tile list, of a tile-expiry event's tiles and of the change lists workers write.
 */
public final class TileLists {

    private static final Pattern LINE = Pattern.compile("(\\d{1,2})/(\\d{1,9})/(\\d{1,9})");
    /** Zoom, then row, then column: the order lists are written in. */
    public static final Comparator<TileCoord> ORDER =
            Comparator.comparingInt(TileCoord::z).thenComparingInt(TileCoord::y).thenComparingInt(TileCoord::x);

    private TileLists() {
    }

    /** A list that failed to parse: what is wrong, and where. */
    public static final class InvalidTileListException extends IllegalArgumentException {
        public InvalidTileListException(String message) {
            super(message);
        }
    }

    /**
     * The distinct tiles of {@code text}, checked against {@code tms} and {@code maxZoom}.
     *
     * @throws InvalidTileListException naming the first bad line, or saying the list is empty or longer than
     *                                  {@code maxTiles}
     */
    public static List<TileCoord> parse(String text, TileMatrixSet tms, int maxZoom, int maxTiles) {
        TreeSet<TileCoord> tiles = new TreeSet<>(ORDER);
        int number = 0;
        for (String line : text.split("\n", -1)) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            Matcher m = LINE.matcher(trimmed);
            if (!m.matches()) {
                throw new InvalidTileListException("line " + number + ": '" + shorten(trimmed)
                        + "' is not a tile; each line is z/x/y, such as 14/8508/5489");
            }
            int z = Integer.parseInt(m.group(1));
            long x = Long.parseLong(m.group(2));
            long y = Long.parseLong(m.group(3));
            if (z > maxZoom) {
                throw new InvalidTileListException("line " + number + ": zoom " + z + " is beyond the layer's "
                        + "deepest zoom, " + maxZoom);
            }
            if (x >= tms.matrixWidth(z) || y >= tms.matrixHeight(z)) {
                throw new InvalidTileListException("line " + number + ": " + trimmed + " is outside " + tms.id()
                        + ", whose zoom " + z + " has x 0.." + (tms.matrixWidth(z) - 1) + " and y 0.."
                        + (tms.matrixHeight(z) - 1));
            }
            tiles.add(new TileCoord(z, (int) x, (int) y));
            if (tiles.size() > maxTiles) {
                throw new InvalidTileListException("the list has more than " + maxTiles
                        + " distinct tiles, the limit; split it into several jobs");
            }
        }
        if (tiles.isEmpty()) {
            throw new InvalidTileListException("the list has no tiles");
        }
        return new ArrayList<>(tiles);
    }

    /**
     * The text of a list as JSON gives it: a string of lines, or an array of {@code z/x/y} strings.
     *
     * @throws InvalidTileListException for anything else
     */
    public static String text(JsonNode tiles) {
        if (tiles.isTextual()) {
            return tiles.textValue();
        }
        if (tiles.isArray() && StreamSupport.stream(tiles.spliterator(), false).allMatch(JsonNode::isTextual)) {
            return StreamSupport.stream(tiles.spliterator(), false).map(JsonNode::textValue)
                    .collect(Collectors.joining("\n"));
        }
        throw new InvalidTileListException("must be z/x/y lines in one string, or an array of z/x/y strings");
    }

    /** The tiles of a list {@link #write} made. */
    public static List<TileCoord> read(String normalised) {
        return normalised.lines().map(line -> {
            String[] parts = line.split("/");
            return new TileCoord(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
        }).toList();
    }

    /** The tiles as a list: one {@code z/x/y} per line. */
    public static String write(List<TileCoord> tiles) {
        return tiles.stream().map(TileCoord::toString).collect(Collectors.joining("\n", "", "\n"));
    }

    private static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
