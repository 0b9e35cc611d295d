package io.tileseeder.adapters.pmtiles;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.PriorityQueue;

/**
 * Sorts more numbers than memory holds: they are kept in a buffer of {@code runSize}, which is sorted and written to a
 * temporary file whenever it fills, and the files are merged as the numbers are read back. Memory: the buffer
 * ({@code 8 * runSize} bytes) and 64 KiB per file while merging.
 */
final class LongSorter implements Closeable {

    private final Path folder;
    private final long[] buffer;
    private final List<Path> runs = new ArrayList<>();
    private final List<DataInputStream> open = new ArrayList<>();
    private int buffered;
    private long size;

    /** @param folder where the sorted runs are written, deleted on {@link #close} */
    LongSorter(Path folder, int runSize) {
        this.folder = folder;
        this.buffer = new long[runSize];
    }

    void add(long value) throws IOException {
        if (buffered == buffer.length) {
            spill();
        }
        buffer[buffered++] = value;
        size++;
    }

    /** How many numbers were added. */
    long size() {
        return size;
    }

    /** The numbers in ascending order; nothing may be added after. */
    PrimitiveIterator.OfLong sorted() throws IOException {
        Arrays.sort(buffer, 0, buffered);
        if (runs.isEmpty()) {
            return Arrays.stream(buffer, 0, buffered).iterator();
        }
        spill();
        PriorityQueue<Head> heads = new PriorityQueue<>();
        for (Path run : runs) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
            open.add(in);
            Head head = new Head(in);
            if (head.advance()) {
                heads.add(head);
            }
        }
        return new PrimitiveIterator.OfLong() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public long nextLong() {
                Head head = heads.poll();
                if (head == null) {
                    throw new NoSuchElementException();
                }
                long value = head.value;
                try {
                    if (head.advance()) {
                        heads.add(head);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read back sorted tile ids: " + e.getMessage(), e);
                }
                return value;
            }
        };
    }

    private void spill() throws IOException {
        Arrays.sort(buffer, 0, buffered);
        Path run = Files.createTempFile(folder, ".sort-", ".ids");
        runs.add(run);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run),
                1 << 16))) {
            for (int i = 0; i < buffered; i++) {
                out.writeLong(buffer[i]);
            }
        }
        buffered = 0;
    }

    @Override
    public void close() throws IOException {
        for (DataInputStream in : open) {
            in.close();
        }
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
    }

    /** The next number of one sorted run. */
    private static final class Head implements Comparable<Head> {
        private final DataInputStream in;
        private long value;

        Head(DataInputStream in) {
            this.in = in;
        }

        boolean advance() throws IOException {
            try {
                value = in.readLong();
                return true;
            } catch (EOFException e) {
                return false;
            }
        }

        @Override
        public int compareTo(Head other) {
            return Long.compare(value, other.value);
        }
    }
}
