package io.tileseeder.coordinator.expiry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tileseeder.grid.MetatileSize;
import io.tileseeder.grid.TileCoord;
import io.tileseeder.grid.TileLists;
import io.tileseeder.grid.TileMatrixSet;
import io.tileseeder.job.Dimension;
import io.tileseeder.job.DimensionValues;
import io.tileseeder.job.IdempotencyConflictException;
import io.tileseeder.job.InvalidJobException;
import io.tileseeder.job.JobLimits;
import io.tileseeder.job.JobRequest;
import io.tileseeder.job.JsonProblems;
import io.tileseeder.job.LayerCatalog;
import io.tileseeder.job.LayerInfo;
import io.tileseeder.job.Mode;
import io.tileseeder.job.TileFormat;
import io.tileseeder.message.Messages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Turns tile-expiry events into reseed jobs. Events of the same layer, matrix set, format and zoom levels are merged
 * into one batch for {@link ExpirySettings#window} from the first of them; then the batch becomes one {@code reseed}
 * job over its tile list, labelled {@code trigger=tile-expiry} and {@code source=} the publishers. A batch is
 * submitted earlier when it reaches the job's tile list limit ({@link JobLimits#maxListTiles}) or when more than
 * {@link ExpirySettings#maxBatches} are open.
 *
 * <p>At least once: the feed that reads the events commits a partition's offsets only below {@link #held()}, the
 * first offset of an event still in a batch not submitted. Events read again after a crash merge into a job with the
 * same idempotency key if they make the same batch, else into one more reseed of the same tiles.
 *
 * <p>An event that is not valid (not JSON, an unknown version, layer or matrix set, a bad tile line) is dropped with
 * a warning naming where it was read: nothing would ever make it valid. A batch whose job is refused as invalid is
 * split in halves, which are tried in its place (a list whose tiles, ancestors and descendants are more than a job
 * may have), down to single tiles, which are dropped; one refused for a while (the queue is full, a store is down)
 * stays, and {@link #waiting()} tells the feed to stop reading until it is submitted. Not thread-safe: the feed's
 * one thread calls it (the gauge reads a count it keeps).
 */
public final class ExpiryReseeds {

    private static final Logger LOG = Logger.getLogger(ExpiryReseeds.class.getName());
    private static final ObjectMapper JSON = Messages.configure(new ObjectMapper());
    private static final Duration RETRY = Duration.ofSeconds(5);
    static final String TRIGGER = "tile-expiry";

    /** Submits a job; answers its id. */
    @FunctionalInterface
    public interface Submitter {
        String submit(JobRequest request, String idempotencyKey);
    }

    private record Key(String layer, TileMatrixSet tileMatrixSet, TileFormat format, int minZoom, int maxZoom,
                       DimensionValues dimensions) {
    }

    private static final class Batch {
        final Key key;
        final Instant first;
        final TreeSet<TileCoord> tiles = new TreeSet<>(TileLists.ORDER);
        final TreeSet<String> sources = new TreeSet<>();
        /** Per partition, the offset of the batch's first event there. */
        final Map<String, Long> firstOffsets = new HashMap<>();

        Batch(Key key, Instant first) {
            this.key = key;
            this.first = first;
        }

        /** Two batches of the same events, each with half of the tiles. */
        List<Batch> halves() {
            List<Batch> halves = List.of(new Batch(key, first), new Batch(key, first));
            int i = 0;
            for (TileCoord tile : tiles) {
                halves.get(i++ < tiles.size() / 2 ? 0 : 1).tiles.add(tile);
            }
            for (Batch half : halves) {
                half.sources.addAll(sources);
                half.firstOffsets.putAll(firstOffsets);
            }
            return halves;
        }
    }

    private final Submitter submitter;
    private final LayerCatalog layers;
    private final JobLimits limits;
    private final ExpirySettings settings;
    private final Clock clock;
    private final LinkedHashMap<Key, Batch> open = new LinkedHashMap<>();
    private final Deque<Batch> ready = new ArrayDeque<>();
    private final Counter merged;
    private final Counter invalid;
    private final Counter submitted;
    private final Counter refused;
    private Instant retryAt = Instant.MIN;
    /** The tiles held, for the gauge a scrape reads from another thread. */
    private final AtomicLong tilesHeld = new AtomicLong();

    public ExpiryReseeds(Submitter submitter, LayerCatalog layers, JobLimits limits, ExpirySettings settings,
                         Clock clock, MeterRegistry registry) {
        this.submitter = submitter;
        this.layers = layers;
        this.limits = limits;
        this.settings = settings;
        this.clock = clock;
        this.merged = events(registry, "merged");
        this.invalid = events(registry, "invalid");
        this.submitted = jobs(registry, "submitted");
        this.refused = jobs(registry, "refused");
        Gauge.builder("seeder.expiry.tiles.held", tilesHeld, AtomicLong::get)
                .description("Expired tiles merged into reseed jobs not submitted yet").register(registry);
    }

    private static Counter events(MeterRegistry registry, String outcome) {
        return Counter.builder("seeder.expiry.events").tag("outcome", outcome)
                .description("Tile-expiry events read: merged into a batch, or dropped as invalid").register(registry);
    }

    private static Counter jobs(MeterRegistry registry, String outcome) {
        return Counter.builder("seeder.expiry.jobs").tag("outcome", outcome)
                .description("Reseed jobs made from tile-expiry events: submitted, or refused as invalid")
                .register(registry);
    }

    /**
     * Merges the event read at {@code offset} of {@code partition}; false (with a warning) if it is not valid.
     */
    public boolean add(byte[] json, String partition, long offset) {
        String where = "tile-expiry event at " + partition + "@" + offset;
        ExpiryEvent event;
        Key key;
        List<TileCoord> tiles;
        try {
            event = JSON.readValue(json, ExpiryEvent.class);
            if (event.v() != ExpiryEvent.VERSION) {
                throw new IllegalArgumentException("has schema version " + event.v() + "; this build reads version "
                        + ExpiryEvent.VERSION);
            }
            key = key(event);
            tiles = TileLists.parse(TileLists.text(event.tiles()), key.tileMatrixSet(),
                    layers.find(key.layer()).orElseThrow().maxZoom(key.tileMatrixSet()), limits.maxListTiles());
        } catch (IOException | IllegalArgumentException e) {
            invalid.increment();
            String reason = e instanceof JsonProcessingException unreadable
                    ? JsonProblems.reason(unreadable, "the event")
                    : e.getMessage().lines().findFirst().orElse("");
            LOG.warning(() -> where + " dropped: " + reason);
            return false;
        }
        Batch batch = open.get(key);
        if (batch != null && batch.tiles.size() + tiles.size() > limits.maxListTiles()) {
            ready.add(open.remove(key));
            batch = null;
        }
        if (batch == null) {
            if (open.size() >= settings.maxBatches()) {
                Iterator<Batch> oldest = open.values().iterator();
                ready.add(oldest.next());
                oldest.remove();
            }
            batch = new Batch(key, clock.instant());
            open.put(key, batch);
        }
        batch.tiles.addAll(tiles);
        batch.sources.add(event.source());
        batch.firstOffsets.putIfAbsent(partition, offset);
        merged.increment();
        tilesHeld.set(countHeld());
        return true;
    }

    private Key key(ExpiryEvent event) {
        if (event.layer() == null || event.source() == null || event.source().isBlank() || event.tiles() == null) {
            throw new IllegalArgumentException("needs layer, source and tiles");
        }
        LayerInfo layer = layers.find(event.layer()).orElseThrow(() -> new IllegalArgumentException(
                "unknown layer '" + event.layer() + "'"));
        TileMatrixSet tms = TileMatrixSet.byId(Objects.requireNonNullElse(event.tileMatrixSet(),
                TileMatrixSet.WEB_MERCATOR_QUAD.id())).filter(layer.tileMatrixSets()::contains)
                .orElseThrow(() -> new IllegalArgumentException("layer '" + layer.name() + "' has no tile matrix set '"
                        + event.tileMatrixSet() + "'"));
        TileFormat format = TileFormat.byId(Objects.requireNonNullElse(event.format(), TileFormat.PNG.id()))
                .filter(layer.formats()::contains).orElseThrow(() -> new IllegalArgumentException("layer '"
                        + layer.name() + "' has no format '" + event.format() + "'"));
        int min = event.zoom() == null || event.zoom().min() == null ? layer.minZoom() : event.zoom().min();
        int deepest = layer.maxZoom(tms);
        int max = event.zoom() == null || event.zoom().max() == null ? deepest : event.zoom().max();
        if (min < layer.minZoom() || max > deepest || min > max) {
            throw new IllegalArgumentException("zoom " + min + ".." + max + " is not within layer '" + layer.name()
                    + "''s " + layer.minZoom() + ".." + deepest + " on " + tms.id());
        }
        return new Key(layer.name(), tms, format, min, max, dimensions(layer, event.dimensions()));
    }

    /** The event's value of each of the layer's dimensions, checked and normalized, or its default. */
    private static DimensionValues dimensions(LayerInfo layer, Map<String, String> given) {
        Map<String, String> asked = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (given != null) {
            asked.putAll(given);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Dimension dimension : layer.dimensions()) {
            String value = asked.remove(dimension.name());
            if (value == null && dimension.defaultValue() == null) {
                throw new IllegalArgumentException("layer '" + layer.name() + "' needs a value of " + dimension.name());
            }
            values.put(dimension.name(), value == null ? dimension.defaultValue() : dimension.check(value));
        }
        if (!asked.isEmpty()) {
            throw new IllegalArgumentException("layer '" + layer.name() + "' has no dimension "
                    + String.join(", ", asked.keySet()));
        }
        return new DimensionValues(values);
    }

    /**
     * Submits the batches whose window has passed, oldest first. One that cannot be submitted now stays, and is tried
     * again at the next call 5 s on.
     */
    public void submitDue() {
        Instant now = clock.instant();
        for (Iterator<Batch> batches = open.values().iterator(); batches.hasNext(); ) {
            Batch batch = batches.next();
            if (!batch.first.plus(settings.window()).isAfter(now)) {
                ready.add(batch);
                batches.remove();
            }
        }
        if (now.isBefore(retryAt)) {
            return;
        }
        try {
            submitReady(now);
        } finally {
            tilesHeld.set(countHeld());
        }
    }

    private void submitReady(Instant now) {
        while (!ready.isEmpty()) {
            Batch batch = ready.peek();
            JobRequest request = request(batch);
            try {
                String id = submitter.submit(request, idempotencyKey(request, batch.firstOffsets));
                submitted.increment();
                LOG.info(() -> "reseed job " + id + " submitted for " + batch.tiles.size() + " expired tiles of layer "
                        + batch.key.layer() + " from " + batch.sources);
            } catch (IdempotencyConflictException e) {
                LOG.info(() -> "the reseed of " + batch.tiles.size() + " expired tiles of layer " + batch.key.layer()
                        + " was submitted before with other settings: " + e.getMessage());
            } catch (InvalidJobException e) {
                ready.remove();
                if (batch.tiles.size() > 1) {
                    // Too many tiles for one job, with their ancestors and descendants: half as many may do.
                    LOG.info(() -> "the reseed of " + batch.tiles.size() + " expired tiles of layer "
                            + batch.key.layer() + " was refused (" + e.getMessage() + "); trying it in two halves");
                    List<Batch> halves = batch.halves();
                    ready.addFirst(halves.get(1));
                    ready.addFirst(halves.get(0));
                } else {
                    refused.increment();
                    LOG.warning(() -> "the reseed of expired tile " + batch.tiles.first() + " of layer "
                            + batch.key.layer() + " from " + batch.sources + " was refused, and dropped: "
                            + e.getMessage());
                }
                continue;
            } catch (RuntimeException e) {
                retryAt = now.plus(RETRY);
                LOG.warning(() -> "cannot submit the reseed of " + batch.tiles.size() + " expired tiles of layer "
                        + batch.key.layer() + " now (" + e.getMessage() + "); trying again in " + RETRY.toSeconds()
                        + " s");
                return;
            }
            ready.remove();
        }
    }

    /** Whether a batch waits to be submitted after a refusal: reading more events can wait. */
    public boolean waiting() {
        return !ready.isEmpty();
    }

    /** Per partition, the offset of the first event held in a batch not submitted yet. */
    public Map<String, Long> held() {
        Map<String, Long> held = new HashMap<>();
        List<Batch> all = new ArrayList<>(open.values());
        all.addAll(ready);
        for (Batch batch : all) {
            batch.firstOffsets.forEach((partition, offset) -> held.merge(partition, offset, Math::min));
        }
        return held;
    }

    private long countHeld() {
        return open.values().stream().mapToLong(b -> b.tiles.size()).sum()
                + ready.stream().mapToLong(b -> b.tiles.size()).sum();
    }

    /**
     * The batch's job: over its tile list, with the layer's metatile if it is a square of 1, 2, 4, 8 or 16 tiles (what
     * a job over a tile list needs), else the largest such square within it.
     */
    private JobRequest request(Batch batch) {
        Key key = batch.key;
        MetatileSize layerMetatile = layers.find(key.layer()).orElseThrow().metatile();
        int side = Integer.highestOneBit(Math.min(layerMetatile.width(), layerMetatile.height()));
        return new JobRequest(key.layer(), key.tileMatrixSet().id(), new JobRequest.Zoom(key.minZoom(), key.maxZoom()),
                null, key.format().id(), Mode.RESEED.id(), new JobRequest.Metatile(side, side), null,
                settings.priority(),
                Map.of("trigger", TRIGGER, "source", sources(batch.sources)), null,
                TextNode.valueOf(TileLists.write(new ArrayList<>(batch.tiles))), null,
                key.dimensions().isEmpty() ? null : dimensions(key.dimensions()));
    }

    private static Map<String, JsonNode> dimensions(DimensionValues values) {
        Map<String, JsonNode> asked = new LinkedHashMap<>();
        values.values().forEach((name, value) -> asked.put(name, TextNode.valueOf(value)));
        return asked;
    }

    /** The sources, comma-separated, within a label's length: those that fit, then how many more. */
    static String sources(TreeSet<String> sources) {
        String all = String.join(",", sources);
        if (all.length() <= JobLimits.MAX_LABEL_LENGTH) {
            return all;
        }
        StringBuilder label = new StringBuilder();
        int shown = 0;
        for (String source : sources) {
            String more = ",+" + (sources.size() - shown - 1) + " more";
            if (label.length() + (shown == 0 ? 0 : 1) + source.length() + more.length() > JobLimits.MAX_LABEL_LENGTH) {
                break;
            }
            label.append(shown == 0 ? "" : ",").append(source);
            shown++;
        }
        return label.append(shown == 0 ? "" : ",").append('+').append(sources.size() - shown).append(" more")
                .toString();
    }

    /**
     * The same batch read again after a crash is the same job; the same tiles expired again later (other events, at
     * other offsets) are another.
     */
    private static String idempotencyKey(JobRequest request, Map<String, Long> firstOffsets) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (request.layer() + "|" + request.tileMatrixSet() + "|" + request.format() + "|"
                            + request.zoom().min() + "|" + request.zoom().max() + "|" + request.labels().get("source")
                            + "|" + new TreeMap<>(firstOffsets) + "|" + request.tiles().textValue()
                            + (request.dimensions() == null ? "" : "|" + request.dimensions()))
                            .getBytes(StandardCharsets.UTF_8));
            return TRIGGER + "-" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
